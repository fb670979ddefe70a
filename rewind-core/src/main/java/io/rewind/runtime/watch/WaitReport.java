package io.rewind.runtime.watch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Where the ranks of a job that stopped making progress wait, compactly: one line per distinct wait,
 * the ranks that wait there grouped ({@code ranks 0, 1, 2 (incarnation 0, 3 operations) wait in
 * Comm.recv at Deadlocked.main(Deadlocked.java:20)}).
 */
public final class WaitReport {
    private WaitReport() {}

    /**
     * One rank's wait: {@code where} it waits (the same text for the same place), and its process (0: a
     * thread of the launcher).
     */
    public record Wait(int rank, int incarnation, long operations, long process, String where) {}

    /** The lines, each starting with {@code prefix}, in the order of the first rank of each wait. */
    public static List<String> lines(String prefix, List<Wait> waits) {
        Map<String, List<Wait>> byPlace = new LinkedHashMap<>();
        for (Wait w : waits) {
            byPlace.computeIfAbsent(w.where(), k -> new ArrayList<>()).add(w);
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, List<Wait>> e : byPlace.entrySet()) {
            List<Wait> group = e.getValue();
            boolean one = group.size() == 1;
            TreeSet<Integer> incarnations = new TreeSet<>();
            long fewest = Long.MAX_VALUE;
            long most = 0;
            for (Wait w : group) {
                incarnations.add(w.incarnation());
                fewest = Math.min(fewest, w.operations());
                most = Math.max(most, w.operations());
            }
            StringBuilder b = new StringBuilder(prefix)
                    .append(one ? "rank " : "ranks ")
                    .append(join(group.stream().map(Wait::rank).toList()))
                    .append(incarnations.size() == 1 ? " (incarnation " : " (incarnations ")
                    .append(join(List.copyOf(incarnations)))
                    .append(", ")
                    .append(fewest == most ? Long.toString(most) : fewest + "-" + most)
                    .append(most == 1 ? " operation" : " operations");
            if (group.getFirst().process() > 0) {
                b.append(one ? ", process " : ", processes ")
                        .append(join(group.stream().map(Wait::process).toList()));
            }
            out.add(b.append(one ? ") waits " : ") wait ").append(e.getKey()).toString());
        }
        return out;
    }

    /**
     * Where a rank thread waits, from its stack: the MPI call it is in and the line that made it, the
     * frame below the facade's ({@code in Comm.recv at Deadlocked.main(Deadlocked.java:20)}); else the
     * first frame outside the JDK and Rewind, else the top of the stack.
     */
    public static String where(StackTraceElement[] stack) {
        StackTraceElement call = null;
        for (StackTraceElement f : stack) {
            if (f.getClassName().startsWith("mpi.")) {
                call = f;
            } else if (call != null) {
                return "in " + simple(call.getClassName()) + "." + call.getMethodName() + " at " + frame(f);
            }
        }
        for (StackTraceElement f : stack) {
            String c = f.getClassName();
            if (!c.startsWith("io.rewind.")
                    && !c.startsWith("java.")
                    && !c.startsWith("jdk.")
                    && !c.startsWith("sun.")) {
                return "at " + frame(f);
            }
        }
        return stack.length == 0 ? "(no stack)" : "at " + frame(stack[0]);
    }

    /**
     * A frame without its class loader's name, which differs between ranks as threads (each has its
     * own), so the same place reads the same for every rank.
     */
    private static String frame(StackTraceElement f) {
        return f.getClassName() + "." + f.getMethodName() + "("
                + (f.getFileName() == null ? "Unknown Source" : f.getFileName())
                + (f.getLineNumber() >= 0 ? ":" + f.getLineNumber() : "") + ")";
    }

    private static String simple(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    private static String join(List<? extends Number> values) {
        return values.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }
}
