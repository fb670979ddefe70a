package io.rewind.ft;

import io.rewind.ft.log.PayloadLogConfig;
import java.util.function.IntFunction;

/**
 * What a job offers its protocol: its size, its settings and its job-level services. Ranks learn
 * about each other by control messages, never from here. The services are reached the same way
 * whether the ranks are threads of one JVM or processes: in a rank process, the event log client
 * sends its requests to the launcher, and the recovery lines are a copy the launcher keeps up to date.
 *
 * @param ranks                      world size
 * @param keepLines                  recovery lines each rank keeps
 * @param payloadLog                 payload log settings, for protocols that log payloads
 * @param applicationLevelCollectives log collectives at application level (one entry per call)
 * @param eventLog                   a rank's client of the job's event logger
 * @param lines                      what every rank's kept recovery lines hold (kept up to date by the
 *                                   runtime as ranks checkpoint and roll back)
 * @param reports                    how a rank's protocol reaches the job's ({@link Protocol#onReport})
 * @param options                    the values of the protocol's own options ({@link
 *                                   ProtocolDescriptor#resolve}: canonical, defaults included, fixed for
 *                                   the job's placement)
 * @param loggers                    the job's logger nodes, which keep payload logs under a quota (null:
 *                                   none)
 */
public record ProtocolServices(
        int ranks,
        int keepLines,
        PayloadLogConfig payloadLog,
        boolean applicationLevelCollectives,
        IntFunction<EventLogClient> eventLog,
        RecoveryLines lines,
        ProtocolReports reports,
        ProtocolOptions options,
        io.rewind.ft.logger.LoggerNodes loggers) {

    /** The same services without logger nodes. */
    public ProtocolServices(
            int ranks,
            int keepLines,
            PayloadLogConfig payloadLog,
            boolean applicationLevelCollectives,
            IntFunction<EventLogClient> eventLog,
            RecoveryLines lines,
            ProtocolReports reports,
            ProtocolOptions options) {
        this(ranks, keepLines, payloadLog, applicationLevelCollectives, eventLog, lines, reports, options, null);
    }

    /** A new rank incarnation's client of the logger nodes, or null if the job has none. */
    public io.rewind.ft.logger.LoggerClient loggerClient(int rank) {
        return loggers == null ? null : loggers.clientFor(rank);
    }
}
