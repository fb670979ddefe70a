package io.rewind.runtime.coordinator;

/**
 * How a rank's incarnation went, as its host saw it.
 *
 * @param how             what happened, for a rank nothing had struck before (such as "its process was
 *                        killed (SIGKILL)")
 * @param endedByProgram  whether its own program ended it (a process that exited with a status, not a
 *                        signal): a re-execution would end it again, so the job ends instead of recovering
 * @param status          the exit status its host saw (-1: none, a thread)
 */
public record DownCause(String how, boolean endedByProgram, int status) {
    /** A crash: the incarnation was killed, or died of something outside its program. */
    public static DownCause crashed(String how) {
        return new DownCause(how, false, -1);
    }
}
