package io.rewind.ft.log;

import java.util.List;

/**
 * Places every payload at the start of the same area, so that successive copies hit the same,
 * already-mapped and probably cached memory. Grows the area when a longer message comes.
 */
final class DummyAppender implements Appender {

    private final BlockSource source;
    private StorageBlock current;

    DummyAppender(BlockSource source) {
        this.source = source;
    }

    @Override
    public Extent[] reserve(MessageKey key, long lengthBytes, List<StorageBlock> retired) {
        if (current == null || current.capacityBytes < lengthBytes) {
            long capacity = Math.max(PayloadLogConfig.PAGE_BYTES, ceilPage(lengthBytes));
            StorageBlock fresh = source.allocate(capacity);
            if (current != null) {
                current.retired = true;
                retired.add(current);
            }
            current = fresh;
        }
        return new Extent[] {new Extent(current, 0, lengthBytes, 0)};
    }

    private static long ceilPage(long bytes) {
        long page = PayloadLogConfig.PAGE_BYTES;
        return (bytes + page - 1) / page * page;
    }

    @Override
    public StorageBlock current() {
        return current;
    }

    @Override
    public BlockSource source() {
        return source;
    }

    @Override
    public boolean retainsPayload() {
        return false;
    }
}
