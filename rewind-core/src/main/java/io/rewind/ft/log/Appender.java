package io.rewind.ft.log;

import java.util.List;

/** Decides where the next payload goes inside the blocks of one source. Used under the log lock. */
sealed interface Appender permits BlockAppender, DummyAppender {

    /**
     * Places a payload of {@code lengthBytes}; either everything needed is obtained or nothing
     * changes. Blocks that stop being current are added to {@code retired}.
     *
     * @return at least one extent (a zero-length message gets one empty extent)
     * @throws PayloadLogException if the source cannot provide the storage
     */
    Extent[] reserve(MessageKey key, long lengthBytes, List<StorageBlock> retired);

    /** The block being filled, or null before the first append. */
    StorageBlock current();

    BlockSource source();

    /** Whether payloads placed here can be read back. */
    boolean retainsPayload();
}
