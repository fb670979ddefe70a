package io.rewind.checkpoint;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The checkpoint file format. Big-endian throughout.
 *
 * <pre>
 *  0      4        6        10       18          22
 *  +------+--------+--------+--------+-----------+----------------------------------+---------+
 *  | RWCK | ver u16| rank   | line   | sections  | section*                         | crc32c  |
 *  |      | = 1    | i32    | i64    | count i32 |                                  | u32     |
 *  +------+--------+--------+--------+-----------+----------------------------------+---------+
 *  section: name length u16 | name UTF-8 | data length i64 | data
 *  crc32c covers every byte before it.
 * </pre>
 */
public final class CheckpointFormat {
    static final int MAGIC = 0x5257434B; // "RWCK"
    static final short VERSION = 1;

    private CheckpointFormat() {}

    /**
     * The file's bytes, written once into an array of the exact size (a large image is not copied
     * again on its way to the disk).
     */
    public static byte[] encode(CheckpointImage image) {
        Map<String, byte[]> sections = image.sections();
        byte[][] names = new byte[sections.size()][];
        long size = 4 + 2 + 4 + 8 + 4 + 4;
        int i = 0;
        for (Map.Entry<String, byte[]> e : sections.entrySet()) {
            byte[] name = e.getKey().getBytes(StandardCharsets.UTF_8);
            if (name.length > 0xFFFF) {
                throw new CheckpointException("section name too long: " + e.getKey());
            }
            names[i++] = name;
            size += 2 + name.length + 8 + e.getValue().length;
        }
        if (size > Integer.MAX_VALUE - 16) {
            throw new CheckpointException("checkpoint of rank " + image.rank() + " line " + image.line()
                    + " is too large for one file (" + size + " bytes)");
        }
        ByteBuffer file = ByteBuffer.allocate((int) size);
        file.putInt(MAGIC).putShort(VERSION).putInt(image.rank()).putLong(image.line());
        file.putInt(sections.size());
        i = 0;
        for (byte[] data : sections.values()) {
            byte[] name = names[i++];
            file.putShort((short) name.length).put(name).putLong(data.length).put(data);
        }
        CRC32C crc = new CRC32C();
        crc.update(file.array(), 0, file.position());
        file.putInt((int) crc.getValue());
        return file.array();
    }

    /** Decodes and verifies; {@code what} names the file in error messages. */
    public static CheckpointImage decode(byte[] file, String what) {
        if (file.length < 26) {
            throw new CheckpointException(what + ": truncated (" + file.length + " bytes)");
        }
        CRC32C crc = new CRC32C();
        crc.update(file, 0, file.length - 4);
        int stored = ByteBuffer.wrap(file, file.length - 4, 4).getInt();
        if ((int) crc.getValue() != stored) {
            throw new CheckpointException(what + ": CRC mismatch (file is corrupt)");
        }
        ByteBuffer in = ByteBuffer.wrap(file, 0, file.length - 4);
        try {
            if (in.getInt() != MAGIC) {
                throw new CheckpointException(what + ": not a Rewind checkpoint (bad magic)");
            }
            short version = in.getShort();
            if (version != VERSION) {
                throw new CheckpointException(what + ": unsupported format version " + version);
            }
            int rank = in.getInt();
            long line = in.getLong();
            int count = in.getInt();
            if (count < 0) {
                throw new CheckpointException(what + ": negative section count");
            }
            Map<String, byte[]> sections = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                byte[] name = new byte[in.getShort() & 0xFFFF];
                in.get(name);
                long len = in.getLong();
                if (len < 0 || len > in.remaining()) {
                    throw new CheckpointException(what + ": section length " + len + " exceeds the file");
                }
                byte[] data = new byte[(int) len];
                in.get(data);
                sections.put(new String(name, StandardCharsets.UTF_8), data);
            }
            if (in.hasRemaining()) {
                throw new CheckpointException(what + ": " + in.remaining() + " stray bytes after the sections");
            }
            return new CheckpointImage(rank, line, sections);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new CheckpointException(what + ": malformed (" + e + ")", e);
        }
    }
}
