package io.rewind.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The result of a job: how each rank ended, what each printed, and the exit status a launcher
 * should return (0 only if every rank completed).
 */
public record JobResult(
        int exitCode,
        List<RankOutcome> ranks,
        List<List<String>> output,
        Duration wallTime,
        String abortReason,
        RunReport report) {
    public boolean ok() {
        return exitCode == 0;
    }

    /** Lines rank {@code r} printed to standard output and standard error, in order, without prefix. */
    public List<String> output(int r) {
        return output.get(r);
    }

    /** How many frames of a failure's stack trace {@link #describeFailures} shows. */
    private static final int SHORT_TRACE = 5;

    /**
     * The job's failures for an error message: the abort reason, then one line per distinct failure,
     * naming the ranks it struck ("ranks 0-3 FAILED: java.lang.IllegalStateException: boom"), with the
     * first frames of its stack trace once, however many ranks it struck.
     */
    public String describeFailures() {
        StringBuilder sb = new StringBuilder();
        if (abortReason != null) {
            sb.append(abortReason).append('\n');
        }
        // The same ending (status and message) on many ranks is one failure: in order of the first rank.
        java.util.Map<String, List<RankOutcome>> same = new java.util.LinkedHashMap<>();
        for (RankOutcome o : ranks) {
            if (!o.ok()) {
                same.computeIfAbsent(o.status() + ": " + o.message(), k -> new java.util.ArrayList<>())
                        .add(o);
            }
        }
        for (Map.Entry<String, List<RankOutcome>> e : same.entrySet()) {
            List<RankOutcome> struck = e.getValue();
            sb.append(struck.size() == 1 ? "rank " : "ranks ")
                    .append(ranges(struck.stream().mapToInt(RankOutcome::rank).toArray()))
                    .append(' ')
                    .append(e.getKey())
                    .append('\n');
            Throwable error = struck.getFirst().error();
            if (error != null && struck.getFirst().status() == RankOutcome.Status.FAILED) {
                StackTraceElement[] trace = error.getStackTrace();
                for (int i = 0; i < Math.min(SHORT_TRACE, trace.length); i++) {
                    sb.append("\tat ").append(trace[i]).append('\n');
                }
                if (trace.length > SHORT_TRACE) {
                    sb.append("\t... ").append(trace.length - SHORT_TRACE).append(" more\n");
                }
            }
        }
        return sb.toString();
    }

    /** Ranks in increasing order as runs: {@code 0-3,5,7-8}. */
    static String ranges(int[] ranks) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ranks.length; ) {
            int j = i;
            while (j + 1 < ranks.length && ranks[j + 1] == ranks[j] + 1) {
                j++;
            }
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(ranks[i]);
            if (j > i) {
                sb.append('-').append(ranks[j]);
            }
            i = j + 1;
        }
        return sb.toString();
    }
}
