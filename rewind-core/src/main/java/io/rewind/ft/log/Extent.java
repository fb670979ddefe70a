package io.rewind.ft.log;

/**
 * Where one fragment of a logged payload lives: {@code lengthBytes} bytes at {@code offsetBytes} in
 * {@code block}, holding message bytes starting at {@code messageOffsetBytes}.
 */
record Extent(StorageBlock block, long offsetBytes, long lengthBytes, long messageOffsetBytes) {}
