package io.rewind.engine;

/**
 * Matching contexts. Each communicator owns two consecutive ones: an even context for the program's
 * point-to-point messages and the next, odd, one for the messages of its collectives, so the two kinds
 * never match each other and are numbered apart (see {@link Communicator}). This class is the one
 * place that knows the rule.
 */
public final class Contexts {
    private Contexts() {}

    /** Whether messages on {@code context} belong to collectives. */
    public static boolean isCollective(int context) {
        return (context & 1) == 1;
    }

    /** The collective context of the communicator whose point-to-point context is {@code context}. */
    public static int collectiveOf(int context) {
        return context | 1;
    }
}
