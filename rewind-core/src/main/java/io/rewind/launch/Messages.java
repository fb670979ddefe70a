package io.rewind.launch;

import io.rewind.engine.CommunicatorFactory;
import io.rewind.runtime.CommunicatorRegistry;
import io.rewind.runtime.FailureSchedule;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * The messages of a job's control links ({@link Link}). A node agent starts, watches and kills the
 * rank processes of its node; a rank process reports to the launcher and reaches the job-level
 * services (event logger, communicator creation) through it. Rank-to-rank traffic never passes here.
 */
final class Messages {
    private Messages() {}

    // --- node agent <-> launcher ------------------------------------------------------------------

    /**
     * A node agent is up on {@code host}; its checkpoint service listens at {@code storageHost:storagePort}
     * and keeps the node's checkpoints in {@code folder} (on that host).
     */
    record AgentHello(String node, String host, long pid, String storageHost, int storagePort, String folder)
            implements Serializable {}

    /**
     * The node whose agent keeps copies of this node's checkpoints from now on ({@code node} null: none,
     * no other node is left or the folder is shared).
     */
    record Partner(String node, String host, int port) implements Serializable {}

    /**
     * Delete the rank's lines past {@code line} written by incarnations before {@code incarnation}, and
     * refuse lines of those incarnations from now on: they describe an execution being redone.
     */
    record Discard(int rank, long line, int incarnation) implements Serializable {}

    /**
     * From the launcher to every node's checkpoint service: hold back from pruning the lines from {@code
     * line} on, the newest line complete for every rank ({@link io.rewind.checkpoint.CheckpointStore#keepFrom}).
     */
    record KeepFrom(long line) implements Serializable {}

    /** Start incarnation {@code incarnation} of {@code rank} on this node. */
    record Spawn(int rank, int incarnation) implements Serializable {}

    /** The process of that incarnation started as {@code pid}. */
    record Spawned(int rank, int incarnation, long pid) implements Serializable {}

    /** Kill that incarnation's process now, with SIGKILL. */
    record Kill(int rank, int incarnation) implements Serializable {}

    /** That incarnation's process is gone, with this exit status (128 + signal when killed). */
    record Exited(int rank, int incarnation, int status) implements Serializable {}

    /** A whole line the rank printed ({@code err}: on standard error). */
    record Output(int rank, int incarnation, boolean err, String line) implements Serializable {}

    /** I am still here: goes both ways between the launcher and each agent, a few times a timeout. */
    record Heartbeat() implements Serializable {}

    /**
     * Are you there? Sent to a peer whose heartbeats are late for their rhythm, before it is taken for
     * lost: the peer's link reader answers it at once, ahead of anything its other threads do.
     */
    record Probe(long number) implements Serializable {}

    /** Here: the answer to {@link Probe} {@code number}. */
    record ProbeAnswer(long number) implements Serializable {}

    /** The job is over: kill what is left and exit. */
    record Shutdown() implements Serializable {}

    // --- rank process <-> launcher ----------------------------------------------------------------

    /** A rank process introduces itself. */
    record RankHello(int rank, int incarnation, long pid) implements Serializable {}

    /**
     * What the rank runs: the job and its own part of it (line 0: from the beginning), how many rank
     * processes share its host (and its cores), where the event logger listens (null: the protocol needs
     * none), how often it reports its log's figures ({@link LogHeld}; 0: never, no run record is kept),
     * and whether it talks to the ranks of its host through shared memory.
     */
    record Setup(
            JobSpec job,
            long line,
            long catchUpPoints,
            long catchUpOperations,
            FailureSchedule kills,
            int ranksOnHost,
            EventLoggerAt eventLogger,
            long logReportEveryNanos,
            boolean sharedMemory,
            List<LoggerAt> loggers,
            io.rewind.runtime.coordinator.Command.Replacement replacement)
            implements Serializable {}

    /**
     * News for a job that reports failures to its program: a failure, a revocation or a decision of a
     * fault-tolerant collective ({@link io.rewind.runtime.coordinator.Command.Failed}, {@code Revoke},
     * {@code Decided}), as the coordinator decided it.
     */
    record Failure(io.rewind.runtime.coordinator.Command news) implements Serializable {}

    /**
     * The rank's transport listens at {@code host:port}, and shares memory with the ranks of {@code
     * shmDomain} (null: with none).
     */
    record Listening(int rank, int incarnation, String host, int port, String shmDomain) implements Serializable {}

    /** Where every rank's current incarnation listens. */
    record Peers(int epoch, Map<Integer, Address> addresses) implements Serializable {}

    /**
     * One rank's current incarnation, its address and shared-memory domain (null: none); a null host:
     * that incarnation is dead.
     */
    record Address(int incarnation, String host, int port, String shmDomain) implements Serializable {}

    /** The rank applied a {@link Peers} table. */
    record PeersApplied(int rank, int incarnation, int epoch) implements Serializable {}

    /** Every rank can reach this one: run the program. */
    record Go() implements Serializable {}

    // The rank's own events (restored, checkpointed, ended, ...) travel as they are: io.rewind.runtime.rank.RankEvent.

    /** A line the runtime of a rank process has to say (not the program's output). */
    record Diagnostic(int rank, int incarnation, String text) implements Serializable {}

    /** The launcher aborted the job: every rank stops. */
    record Aborted(int rank, int errorCode, String reason) implements Serializable {}

    /** Every rank finished: finished ranks stop serving their peers and exit. */
    record Finished() implements Serializable {}

    /** A line of a rank was published ({@code frontiers}) or lines past {@code line} discarded (null). */
    record Lines(int rank, long line, Map<Long, Long> frontiers, long[] events) implements Serializable {}

    // --- requests to the job-level services, and their answers ------------------------------------

    /** A request {@code id} of a rank to the launcher's services. */
    record Request(long id, Serializable body) implements Serializable {}

    /** The answer to request {@code id}: a value, or an error message. */
    record Answer(long id, Serializable value, String error) implements Serializable {}

    record RecordWildcard(int rank, long index, int source, int tag, long sequence) implements Serializable {}

    record RecordPoll(int rank, long index, long[] outcome) implements Serializable {}

    record FetchDeterminants(int rank) implements Serializable {}

    /** The launcher asks the event logger for its entries and bytes so far (for the run's report). */
    record EventLogFigures() implements Serializable {}

    // --- event logger process <-> launcher, ranks -------------------------------------------------

    /**
     * The event logger process listens at {@code host:port}; it read {@code recovered} entries back
     * from its journal.
     */
    record EventLoggerHello(String host, int port, long pid, long recovered) implements Serializable {}

    /** The event logger now listens here (a new process took over the journal). */
    record EventLoggerAt(String host, int port) implements Serializable {}

    // --- logger processes <-> launcher, ranks ------------------------------------------------------

    /** Logger {@code index} listens at {@code host:port}. */
    record LoggerHello(int index, String host, int port, long pid) implements Serializable {}

    /** Where logger {@code index} listens. */
    record LoggerAt(int index, String host, int port) implements Serializable {}

    /** A rank asks a logger for room for a block of {@code bytes}: answered true (accepted) or false. */
    record ReserveLog(long bytes) implements Serializable {}

    /** Keep this block (CRC-32C {@code crc}, {@code messages} messages) in the room reserved; answered by its id. */
    record StoreBlock(long reserved, byte[] data, int crc, int messages) implements Serializable {}

    /**
     * Send back {@code length} bytes at {@code offset} of block {@code id} (-1: the whole block); answered
     * by the bytes.
     */
    record ReadBlock(long id, long offset, int length) implements Serializable {}

    /** So many messages of these blocks are no longer needed. */
    record ReleaseBlocks(long[] ids, int[] counts) implements Serializable {}

    /** The launcher asks a logger for its figures ({@code BlockStore.figures()}). */
    record LoggerFigures() implements Serializable {}

    /**
     * Rank to launcher: the destinations of the rank's logged messages that only dead loggers held (empty:
     * none any more); a crash of one of them rolls the rank back with it.
     */
    record LostAtLoggers(int rank, int incarnation, int[] destinations) implements Serializable {}

    /** Rank to launcher, as its program ends: what its dumping did ({@code LoggerNodes.figureWords}). */
    record DumpFigures(int rank, int incarnation, long[] words) implements Serializable {}

    record CreateCommunicator(CommunicatorRegistry.Request request) implements Serializable {}

    /** Rank to launcher, a request: a fact for the job's protocol ({@code Protocol.onReport}). */
    record ProtocolReport(int rank, int incarnation, long[] words) implements Serializable {}

    record CommunicatorCreated(CommunicatorFactory.Created created) implements Serializable {}

    /**
     * Rank 0 to launcher, a request: bytes of the job's standard input from {@code offset}, at most
     * {@code max}; answered with a {@code byte[]} once there are some, empty at the input's end.
     */
    record ReadInput(long offset, int max) implements Serializable {}

    // --- a node's checkpoint service (node agent), reached by its ranks and by other agents --------

    /**
     * Keep this line ({@code bytes}: the encoded file) of the rank, or, if {@code part} is above 0, that
     * part of the line's channel state; {@code copy}: it is a partner's copy, not to be copied on.
     * Answered by {@link Stored}.
     */
    record StoreLine(int rank, int incarnation, long line, int part, byte[] bytes, boolean copy)
            implements Serializable {}

    /** The nodes that keep the line now. */
    record Stored(List<String> holders) implements Serializable {}

    /** The encoded file of one line of the rank, with the line's channel state. Answered by its bytes. */
    record LoadLine(int rank, long line) implements Serializable {}
}
