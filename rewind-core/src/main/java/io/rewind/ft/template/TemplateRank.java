package io.rewind.ft.template;

import io.rewind.ft.RankProtocol;

/**
 * The template's part in one rank incarnation. It needs no hook: every default of {@link
 * RankProtocol} and {@link io.rewind.engine.FaultTolerance} does nothing. A protocol that logs
 * overrides {@code send} and {@code afterSend}; one that records non-deterministic outcomes overrides
 * {@code onWildcardMatch} and {@code onPollOutcome}, and forces them in a restarted incarnation with
 * {@code forcedWildcard} and {@code forcedPollOutcome}; one whose checkpoints must hold the messages
 * that crossed the line returns true from {@code tracksArrivals}.
 */
final class TemplateRank implements RankProtocol {
    @Override
    public String name() {
        return "template";
    }
}
