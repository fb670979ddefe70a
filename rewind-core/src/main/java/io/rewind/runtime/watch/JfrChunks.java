package io.rewind.runtime.watch;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * Joins JFR files of several JVMs into one. A JFR file is a sequence of self-contained chunks, but a
 * reader ({@code RecordingFile}, {@code jfr print}) takes a chunk whose metadata carries the same id as
 * the chunk before it to have the same metadata, and the JVMs of one job all number theirs alike: a
 * rank's events would be read with the launcher's event types. So every chunk appended gets an id of
 * its own (its first byte changed, the value's length kept), and each is read with its own metadata.
 */
final class JfrChunks {
    /** A chunk's header: magic, version, size, constant pool and metadata offsets, ..., features. */
    private static final int HEADER_BYTES = 68;

    private static final int SIZE_AT = 8;
    private static final int METADATA_AT = 24;
    private static final int FEATURES_AT = 64;
    private static final int COMPRESSED_INTEGERS = 1;

    /** Chunks appended so far: the next one's metadata id is told apart by it. */
    private int appended;

    /** Appends the chunks of one JFR file; a file that is not whole chunks is appended as it is. */
    void append(byte[] file, OutputStream out) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(file);
        int at = 0;
        while (at + HEADER_BYTES <= file.length && b.getInt(at) == 0x464c5200) { // "FLR\0"
            long size = b.getLong(at + SIZE_AT);
            if (size < HEADER_BYTES || at + size > file.length) {
                break;
            }
            relabelMetadata(file, b, at);
            out.write(file, at, (int) size);
            at += (int) size;
            appended++;
        }
        if (at < file.length) {
            out.write(file, at, file.length - at);
        }
    }

    /**
     * The chunk at {@code chunk} gets a metadata id of its own. The metadata event starts with its size,
     * type, start, duration and id, each a variable-length integer of 7 bits a byte, lowest first.
     */
    private void relabelMetadata(byte[] file, ByteBuffer b, int chunk) {
        if ((b.getInt(chunk + FEATURES_AT) & COMPRESSED_INTEGERS) == 0) {
            return; // fixed-width integers: left as written
        }
        long metadata = b.getLong(chunk + METADATA_AT);
        if (metadata <= 0 || chunk + metadata >= file.length) {
            return;
        }
        int at = (int) (chunk + metadata);
        for (int field = 0; field < 4; field++) {
            at = skipVarint(file, at);
            if (at < 0) {
                return;
            }
        }
        if (at >= file.length) {
            return;
        }
        file[at] = (byte) ((file[at] & 0x80) | ((appended + 1) & 0x7f));
    }

    /** Where the variable-length integer at {@code at} ends; -1 past the file's end. */
    private static int skipVarint(byte[] file, int at) {
        for (int i = 0; i < 9; i++) {
            if (at >= file.length) {
                return -1;
            }
            if ((file[at++] & 0x80) == 0) {
                return at;
            }
        }
        return at;
    }
}
