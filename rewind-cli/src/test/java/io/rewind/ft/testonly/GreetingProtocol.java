package io.rewind.ft.testonly;

import io.rewind.ft.Protocol;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolOption;
import io.rewind.ft.ProtocolProvider;
import io.rewind.ft.ProtocolServices;
import io.rewind.ft.RankProtocol;
import io.rewind.ft.RecoveryPlan;
import io.rewind.ft.RecoveryView;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A protocol that exists only in this module's tests, to show what adding one takes: this package
 * and one line in {@code META-INF/services/io.rewind.ft.ProtocolProvider}. It tolerates nothing (a
 * crash aborts the job, as under {@code none}), so no suite that sweeps the recovering protocols
 * picks it up; its one option, {@code --greeting}, is its own, and the job's summary repeats the value
 * the protocol got when it started.
 */
public final class GreetingProtocol implements Protocol {
    /** A word the protocol says in the job's summary: letters only. */
    static final ProtocolOption GREETING = ProtocolOption.of(
            "--greeting",
            "WORD",
            "hello",
            "For --protocol greeting (a test-only protocol), the word its summary says. Default: hello.",
            text -> {
                String word = text.strip().toLowerCase(Locale.ROOT);
                if (word.isEmpty() || !word.chars().allMatch(Character::isLetter)) {
                    throw new IllegalArgumentException("--greeting " + text + ": one word of letters, please");
                }
                return word;
            });

    /** The greeting the last started instance got. */
    static volatile String lastGreeting;

    private String greeting;

    /** The one registration line names this. */
    public static final class Provider implements ProtocolProvider {
        @Override
        public ProtocolDescriptor descriptor() {
            return ProtocolDescriptor.builder("greeting", GreetingProtocol::new)
                    .title("the test-only greeting protocol")
                    .summary("test only: no fault tolerance, and a greeting in the summary")
                    .noCapabilities()
                    .option(GREETING)
                    .build();
        }
    }

    @Override
    public String name() {
        return "greeting";
    }

    @Override
    public boolean recovers() {
        return false;
    }

    @Override
    public void start(ProtocolServices services) {
        greeting = services.options().get(GREETING.name());
        lastGreeting = greeting;
    }

    @Override
    public RankProtocol openRank(int rank, int incarnation) {
        return RankProtocol.NONE;
    }

    @Override
    public RecoveryPlan plan(Set<Integer> failed, RecoveryView view) {
        throw new IllegalStateException("protocol greeting does not recover");
    }

    @Override
    public List<String> summary() {
        return List.of("greeting: " + greeting);
    }
}
