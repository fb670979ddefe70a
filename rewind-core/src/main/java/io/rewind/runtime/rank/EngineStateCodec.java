package io.rewind.runtime.rank;

import io.rewind.checkpoint.CheckpointException;
import io.rewind.engine.Communicator;
import io.rewind.engine.CommunicatorState;
import io.rewind.engine.Frame;
import io.rewind.engine.MailboxSnapshot;
import io.rewind.engine.RankEngine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The runtime's own part of a checkpoint: what a restarted rank needs besides the program's state.
 *
 * <pre>
 *  version i32 = 4 (3: sequences of every member, not only the non-zero ones; 2: the same without
 *            withdrawn frames; 1: without patterns either)
 *  counters: count i32, then i64 each (wildcard receives, polls, next context)
 *  patterns: count i32, then i32 each (active pattern id, its iteration id, then the last iteration
 *            id of each declared pattern from id 1 on)
 *  communicators: count i32, then each: context i32, members i32, written i32, then for each member
 *                 whose numbers are not both zero: member i32, sendSequence i64,
 *                 collectiveSendSequence i64; then collectiveSequence i32, creations i64
 *  frontiers: count i32, then each: channel key i64, highest arrived i64
 *  unexpected: count i32, then frames
 *  held: count i32, then frames
 *  withdrawn: count i32, then each: channel key i64, sequence i64 (frames whose senders cancelled them)
 *  frame: context i32, source i32, sourceWorld i32, destinationWorld i32, tag i32, sequence i64,
 *         incarnation i32, patternId i32, iterationId i32, length i32, payload; length -1 (no payload)
 *         is the place of a withdrawn frame
 * </pre>
 */
final class EngineStateCodec {
    /**
     * The version written; versions 1 to 3 (before patterns, before withdrawn frames, with the
     * sequences of every member) are still read.
     */
    static final int VERSION = 4;

    private EngineStateCodec() {}

    static byte[] encode(RankEngine engine, MailboxSnapshot mailbox) {
        try {
            long[] withdrawn = mailbox.withdrawn(); // a copy: taken once
            // Sized for what is known to be large (the queued messages), so that it seldom grows.
            Output bytes = new Output(1024
                    + framesBytes(mailbox.unexpected())
                    + framesBytes(mailbox.held())
                    + 16L * mailbox.frontiers().size()
                    + 8L * withdrawn.length);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(VERSION);
            long[] counters = engine.counters();
            out.writeInt(counters.length);
            for (long c : counters) {
                out.writeLong(c);
            }
            int[] patterns = engine.patterns().save();
            out.writeInt(patterns.length);
            for (int p : patterns) {
                out.writeInt(p);
            }
            List<Communicator> comms = new ArrayList<>(engine.communicators());
            out.writeInt(comms.size());
            for (Communicator c : comms) {
                CommunicatorState s = c.state();
                out.writeInt(s.context());
                long[] seq = s.sendSequence();
                long[] collSeq = s.collectiveSendSequence();
                out.writeInt(seq.length);
                // Only the members this rank sent to: a rank of thousands talks to a few.
                int written = 0;
                for (int m = 0; m < seq.length; m++) {
                    if (seq[m] != 0 || collSeq[m] != 0) {
                        written++;
                    }
                }
                out.writeInt(written);
                for (int m = 0; m < seq.length; m++) {
                    if (seq[m] != 0 || collSeq[m] != 0) {
                        out.writeInt(m);
                        out.writeLong(seq[m]);
                        out.writeLong(collSeq[m]);
                    }
                }
                out.writeInt(s.collectiveSequence());
                out.writeLong(s.creations());
            }
            out.writeInt(mailbox.frontiers().size());
            for (Map.Entry<Long, Long> e : mailbox.frontiers().entrySet()) {
                out.writeLong(e.getKey());
                out.writeLong(e.getValue());
            }
            writeFrames(out, bytes, mailbox.unexpected());
            writeFrames(out, bytes, mailbox.held());
            out.writeInt(withdrawn.length / 2);
            for (long w : withdrawn) {
                out.writeLong(w);
            }
            out.flush();
            return bytes.bytes();
        } catch (IOException e) {
            throw new CheckpointException("cannot encode runtime state", e);
        }
    }

    /** Frames alone, in the frame layout above (a count, then each frame): a line's channel state. */
    static byte[] encodeFrames(List<Frame> frames) {
        try {
            Output bytes = new Output(framesBytes(frames));
            DataOutputStream out = new DataOutputStream(bytes);
            writeFrames(out, bytes, frames);
            out.flush();
            return bytes.bytes(); // the exact size: not copied again
        } catch (IOException e) {
            throw new CheckpointException("cannot encode frames", e);
        }
    }

    /** The frames {@link #encodeFrames} wrote. */
    static List<Frame> decodeFrames(byte[] bytes) {
        try {
            return readFrames(new DataInputStream(new ByteArrayInputStream(bytes)));
        } catch (IOException e) {
            throw new CheckpointException("channel state is malformed: " + e.getMessage(), e);
        }
    }

    /** Bytes {@link #writeFrames} writes for {@code frames}. */
    private static long framesBytes(List<Frame> frames) {
        long n = 4;
        for (Frame f : frames) {
            n += FRAME_HEADER_BYTES + (f.isWithdrawn() ? 0 : f.lengthBytes());
        }
        return n;
    }

    /** A frame's fields before its payload: eight ints, one long, and the length. */
    private static final int FRAME_HEADER_BYTES = 8 * 4 + 8 + 4;

    /**
     * The bytes being written, payloads copied straight into them from their segments (not through an
     * array of their own), and handed out without a copy when the size was known.
     */
    private static final class Output extends ByteArrayOutputStream {
        Output(long expected) {
            super((int) Math.min(Integer.MAX_VALUE - 16, Math.max(32, expected)));
        }

        void writeFrom(MemorySegment src, long offset, int len) {
            if (count + len > buf.length) {
                long grown = Math.max((long) buf.length * 2, (long) count + len);
                buf = java.util.Arrays.copyOf(buf, (int) Math.min(Integer.MAX_VALUE - 16, grown));
            }
            MemorySegment.copy(src, offset, MemorySegment.ofArray(buf), count, len);
            count += len;
        }

        byte[] bytes() {
            return count == buf.length ? buf : toByteArray();
        }
    }

    /** {@code out} writes into {@code bytes} unbuffered, so a payload copied into them comes in order. */
    private static void writeFrames(DataOutputStream out, Output bytes, List<Frame> frames) throws IOException {
        out.writeInt(frames.size());
        for (Frame f : frames) {
            out.writeInt(f.context());
            out.writeInt(f.source());
            out.writeInt(f.sourceWorld());
            out.writeInt(f.destinationWorld());
            out.writeInt(f.tag());
            out.writeLong(f.sequence());
            out.writeInt(f.incarnation());
            out.writeInt(f.patternId());
            out.writeInt(f.iterationId());
            if (f.isWithdrawn()) {
                out.writeInt(-1);
                continue;
            }
            int len = Math.toIntExact(f.lengthBytes());
            out.writeInt(len);
            if (len > 0) {
                bytes.writeFrom(f.data(), f.dataOffset(), len);
            }
        }
    }

    /**
     * The decoded state.
     *
     * @param patterns the pattern state as {@link io.rewind.engine.PatternState#save()} gives it, or
     *     null for a version-1 checkpoint (written before patterns existed, so none was in use)
     */
    record State(long[] counters, int[] patterns, List<CommunicatorState> communicators, MailboxSnapshot mailbox) {}

    static State decode(byte[] bytes) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
            int version = in.readInt();
            if (version < 1 || version > VERSION) {
                throw new CheckpointException("unsupported runtime-state version " + version);
            }
            long[] counters = new long[in.readInt()];
            for (int i = 0; i < counters.length; i++) {
                counters[i] = in.readLong();
            }
            int[] patterns = null;
            if (version >= 2) {
                patterns = new int[in.readInt()];
                for (int i = 0; i < patterns.length; i++) {
                    patterns[i] = in.readInt();
                }
            }
            int nc = in.readInt();
            List<CommunicatorState> comms = new ArrayList<>(nc);
            for (int i = 0; i < nc; i++) {
                int context = in.readInt();
                long[] seq = new long[in.readInt()];
                long[] collSeq = new long[seq.length];
                if (version >= 4) {
                    int written = in.readInt();
                    for (int j = 0; j < written; j++) {
                        int m = in.readInt();
                        if (m < 0 || m >= seq.length) {
                            throw new CheckpointException("member " + m + " of a communicator of " + seq.length);
                        }
                        seq[m] = in.readLong();
                        collSeq[m] = in.readLong();
                    }
                } else {
                    for (int j = 0; j < seq.length; j++) {
                        seq[j] = in.readLong();
                    }
                    for (int j = 0; j < collSeq.length; j++) {
                        collSeq[j] = in.readLong();
                    }
                }
                comms.add(new CommunicatorState(context, seq, collSeq, in.readInt(), in.readLong()));
            }
            int nf = in.readInt();
            Map<Long, Long> frontiers = new HashMap<>();
            for (int i = 0; i < nf; i++) {
                frontiers.put(in.readLong(), in.readLong());
            }
            List<Frame> unexpected = readFrames(in);
            List<Frame> held = readFrames(in);
            long[] withdrawn = new long[0];
            if (version >= 3) {
                int nw = in.readInt();
                if (nw < 0) {
                    throw new CheckpointException("runtime state is malformed: " + nw + " withdrawn frames");
                }
                withdrawn = new long[2 * nw];
                for (int i = 0; i < withdrawn.length; i++) {
                    withdrawn[i] = in.readLong();
                }
            }
            return new State(counters, patterns, comms, new MailboxSnapshot(frontiers, unexpected, held, withdrawn));
        } catch (IOException e) {
            throw new CheckpointException("runtime state is malformed: " + e.getMessage(), e);
        }
    }

    private static List<Frame> readFrames(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<Frame> frames = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int context = in.readInt();
            int source = in.readInt();
            int sourceWorld = in.readInt();
            int destinationWorld = in.readInt();
            int tag = in.readInt();
            long seq = in.readLong();
            int incarnation = in.readInt();
            int patternId = in.readInt();
            int iterationId = in.readInt();
            int length = in.readInt();
            if (length == -1) {
                Frame place = Frame.withdrawnPlace(context, sourceWorld, destinationWorld, seq, incarnation);
                place.setPattern(patternId, iterationId);
                frames.add(place);
                continue;
            }
            byte[] payload = new byte[length];
            in.readFully(payload);
            Frame f = new Frame(
                    context,
                    source,
                    sourceWorld,
                    destinationWorld,
                    tag,
                    seq,
                    incarnation,
                    MemorySegment.ofArray(payload),
                    0,
                    payload.length,
                    null);
            f.setPattern(patternId, iterationId);
            frames.add(f);
        }
        return frames;
    }
}
