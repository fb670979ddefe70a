package io.rewind.ft.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/** The fragment header: every field reads back as written, at the offsets the format documents. */
class LogBlockFormatTest {

    @Property(tries = 300)
    void a_header_reads_back_field_for_field(
            @ForAll int context,
            @ForAll @IntRange(min = 0) int source,
            @ForAll @IntRange(min = 0) int destination,
            @ForAll int tag,
            @ForAll @LongRange(min = 1) long sequence,
            @ForAll @IntRange(min = 0) int incarnation,
            @ForAll @IntRange(min = 0, max = 64) int length,
            @ForAll @IntRange(min = 0, max = 7) int misalignment) {
        MessageKey key = new MessageKey(context, source, destination, tag, sequence, incarnation);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment memory = arena.allocate(4096 + 8, 8);
            // A block's base need not be 8-byte aligned (a heap array, a slice): the header must not care.
            MemorySegment block = memory.asSlice(misalignment, 4096);
            LogBlockFormat.writeWholeMessageHeader(block, 0, key, length);
            LogBlockFormat.writeEnd(block, LogBlockFormat.recordBytes(length));

            List<LogBlockFormat.Fragment> fragments = LogBlockFormat.scan(block);
            assertEquals(1, fragments.size());
            LogBlockFormat.Fragment f = fragments.get(0);
            assertEquals(key, f.key());
            assertEquals(LogBlockFormat.FLAG_FIRST | LogBlockFormat.FLAG_LAST, f.flags());
            assertEquals(LogBlockFormat.HEADER_BYTES, f.payloadOffsetInBlock());
            assertEquals(length, f.fragmentLengthBytes());
            assertEquals(length, f.messageLengthBytes());
            assertEquals(0, f.fragmentOffsetBytes());

            // The documented layout, read field by field in little-endian order.
            ValueLayout.OfInt i32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
            ValueLayout.OfLong i64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
            assertEquals(LogBlockFormat.MAGIC, block.get(i32, 0));
            assertEquals(context, block.get(i32, 8));
            assertEquals(source, block.get(i32, 12));
            assertEquals(destination, block.get(i32, 16));
            assertEquals(tag, block.get(i32, 20));
            assertEquals(sequence, block.get(i64, 24));
            assertEquals(incarnation, block.get(i32, 32));
            assertEquals(length, block.get(i32, 36));
            assertEquals(length, block.get(i64, 40));
            assertEquals(0L, block.get(i64, 48));
        }
    }
}
