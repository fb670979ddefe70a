package io.rewind.notice;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Where the runtime says what it has to say about itself (a link that broke, a log reserve cut, a part
 * of a line's channel state that could not be kept): never into a rank's output. Code that may run on
 * a rank's threads, or on threads they started (which print as the rank), prints here instead of to
 * {@code System.err}: the runtime's output router takes that for the program's own standard error, and
 * a notice there would become a line of the rank's output, one the program never printed (a comparison
 * with the failure-free output would fail on it, and the count of lines a restarted rank suppresses
 * would be off by it).
 *
 * <p>A notice goes to the standard error that threads of no rank print to (the output router says
 * which, {@link #unroutedTo}); a rank process sends its notices to the launcher instead ({@link
 * #sendTo}), since its own standard error is the rank's.
 */
public final class RuntimeNotices {
    /** Where threads of no rank print: standard error until the output router says otherwise. */
    private static volatile Consumer<String> unrouted = line -> System.err.println(line);
    /** Where this JVM's notices go instead (a rank process: the launcher), or null. */
    private static volatile Consumer<String> redirect;

    private RuntimeNotices() {}

    /** Says {@code line}, once, as the runtime. */
    public static void print(String line) {
        Consumer<String> to = redirect;
        (to != null ? to : unrouted).accept(line);
    }

    /** From now on, notices of this JVM go to {@code to} (a rank process: its link to the launcher). */
    public static void sendTo(Consumer<String> to) {
        redirect = Objects.requireNonNull(to, "to");
    }

    /** The output router's way to print as a thread of no rank (used unless {@link #sendTo} was called). */
    public static void unroutedTo(Consumer<String> to) {
        unrouted = Objects.requireNonNull(to, "to");
    }
}
