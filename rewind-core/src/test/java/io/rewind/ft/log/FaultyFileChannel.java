package io.rewind.ft.log;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A real file channel whose writes or mappings can be made to fail, the way a full disk or an
 * exhausted address space would make them fail, without privileges a CI machine may not grant.
 */
final class FaultyFileChannel extends FileChannel {

    volatile boolean failWrites;
    volatile boolean failMaps;
    private final FileChannel delegate;

    FaultyFileChannel(FileChannel delegate) {
        this.delegate = delegate;
    }

    private void checkWrite() throws IOException {
        if (failWrites) {
            throw new IOException("No space left on device");
        }
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        checkWrite();
        return delegate.write(src, position);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        checkWrite();
        return delegate.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        checkWrite();
        return delegate.write(srcs, offset, length);
    }

    @Override
    public MemorySegment map(MapMode mode, long offset, long size, Arena arena) throws IOException {
        if (failMaps) {
            throw new IOException("Map failed: Cannot allocate memory");
        }
        return delegate.map(mode, offset, size, arena);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        if (failMaps) {
            throw new IOException("Map failed: Cannot allocate memory");
        }
        return delegate.map(mode, position, size);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return delegate.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        return delegate.read(dsts, offset, length);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return delegate.read(dst, position);
    }

    @Override
    public long position() throws IOException {
        return delegate.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        delegate.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return delegate.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        delegate.truncate(size);
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        delegate.force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        return delegate.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        return delegate.transferFrom(src, position, count);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return delegate.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return delegate.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        delegate.close();
    }
}
