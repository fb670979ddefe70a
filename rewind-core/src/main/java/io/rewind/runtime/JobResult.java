package io.rewind.runtime;

import java.time.Duration;
import java.util.List;

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

    /** One line per failed rank, for error messages. */
    public String describeFailures() {
        StringBuilder sb = new StringBuilder();
        if (abortReason != null) {
            sb.append(abortReason).append('\n');
        }
        for (RankOutcome o : ranks) {
            if (!o.ok()) {
                sb.append("rank ")
                        .append(o.rank())
                        .append(' ')
                        .append(o.status())
                        .append(": ")
                        .append(o.message())
                        .append('\n');
            }
        }
        return sb.toString();
    }
}
