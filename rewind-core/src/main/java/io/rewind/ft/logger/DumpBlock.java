package io.rewind.ft.logger;

import io.rewind.ft.log.LogBlockFormat;
import io.rewind.ft.log.LogEntry;
import io.rewind.ft.log.PayloadLogException;
import java.lang.foreign.MemorySegment;

/**
 * A dump as it travels: one block in the payload log's block format holding the dumped entries,
 * with its CRC-32C, and where each entry's payload starts in it (-1: the entry left the log while the
 * dump was on its way, so nothing of it is needed).
 */
public record DumpBlock(byte[] data, long[] offsets, int crc) {

    /** Copies the entries of {@code dump} out of their log into a new block of {@code blockBytes}. */
    public static DumpBlock build(Dump dump, long blockBytes) {
        byte[] data = new byte[Math.toIntExact(blockBytes)];
        MemorySegment block = MemorySegment.ofArray(data);
        long[] offsets = new long[dump.entries.size()];
        long at = 0;
        for (int i = 0; i < offsets.length; i++) {
            LogEntry entry = dump.entries.get(i);
            offsets[i] = -1;
            try {
                entry.readPayload(block, at + LogBlockFormat.HEADER_BYTES);
            } catch (PayloadLogException | IllegalStateException e) {
                continue; // trimmed (or its rank crashed) while the dump was on its way: not needed
            }
            LogBlockFormat.writeWholeMessageHeader(block, at, entry.key(), entry.lengthBytes());
            offsets[i] = at + LogBlockFormat.HEADER_BYTES;
            at += LogBlockFormat.recordBytes(entry.lengthBytes());
        }
        LogBlockFormat.writeEnd(block, at);
        return new DumpBlock(data, offsets, LogBlockFormat.checksum(block));
    }

    /** How many entries the block holds. */
    public int messages() {
        int n = 0;
        for (long o : offsets) {
            if (o >= 0) {
                n++;
            }
        }
        return n;
    }
}
