package io.rewind.ft.sender;

import io.rewind.ft.Protocol;
import io.rewind.ft.ProtocolServices;
import io.rewind.ft.RankProtocol;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.log.PayloadLog;

/**
 * What every protocol that logs payloads at the sender ({@code pessimistic}, {@code causal}, {@code
 * mcml}, {@code spbc}) does alike when the job starts and when a rank incarnation opens: keeps the
 * job's services and recovery lines, opens the rank's payload log, and puts the sender-side stack
 * together with the spill to the job's logger nodes (if the job has any). A protocol says only what
 * tells it apart ({@link #composeRank}: which channels are logged, where outcomes go, how far its
 * logs may be trimmed, whether a quota switches channels off).
 */
public abstract class SenderLoggingProtocol implements Protocol {
    /** The job's services, from {@link #start} on. */
    protected ProtocolServices services;
    /** What each rank's kept recovery lines hold (for log truncation and plans), from {@link #start} on. */
    protected RecoveryLines lines;

    @Override
    public boolean recovers() {
        return true;
    }

    @Override
    public boolean logsPayloads() {
        return true;
    }

    /** Keeps the job's services; a protocol that sets up more calls this first. */
    @Override
    public void start(ProtocolServices s) {
        this.services = s;
        this.lines = s.lines();
    }

    /** The rank's stack over a payload log of its own, spilling to the job's loggers if there are any. */
    @Override
    public final RankProtocol openRank(int rank, int incarnation) {
        return composeRank(rank, incarnation, openLog(rank)).dumpingTo(services.loggerClient(rank));
    }

    /** The rank's payload log, as the job configured it. */
    protected PayloadLog openLog(int rank) {
        return PayloadLog.open(rank, services.payloadLog());
    }

    /** The sender-side stack of one rank incarnation over {@code log}: what tells the protocol apart. */
    protected abstract SenderLoggingRank composeRank(int rank, int incarnation, PayloadLog log);
}
