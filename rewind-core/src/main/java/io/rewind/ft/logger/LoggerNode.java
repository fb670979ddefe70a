package io.rewind.ft.logger;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;

/**
 * One logger node as its job's {@link LoggerNodes} sees it: in this JVM ({@link LocalLoggerNode}), or
 * a logger process reached over the network (in the launch layer). Every method but {@link
 * #transfer} is called with the {@link LoggerNodes} lock held.
 */
public interface LoggerNode {
    int index();

    boolean alive();

    /** Asks for room for {@code bytes} of block; false if declined (full) or dead. */
    boolean reserve(long bytes);

    /** Carries an accepted dump over without blocking the rank; calls {@code dump}'s part done at the end. */
    void transfer(Dump dump, long blockBytes);

    /** Records a block its sender built (one message too long for the quota), or nothing if dead. */
    void storeBuilt(byte[] data, int crc, long reserved, DumpedPayload payload, long payloadOffset);

    /** Copies a payload it holds; throws {@link LostPayloadException} if it no longer can. */
    void read(DumpedPayload.Placement at, long lengthBytes, MemorySegment destination, long offset);

    /** One payload of a block is no longer needed. */
    void release(DumpedPayload.Placement at);

    /** Marks this node dead; returns the payloads it held. */
    List<DumpedPayload> die();

    /** Stops whatever runs for it (the job ended). */
    void stop();

    /** What the run record says about this logger. */
    Map<String, Object> record();
}
