package io.rewind.transport.shm;

import io.rewind.engine.Transport;
import io.rewind.ft.ControlMessageCodec;
import io.rewind.transport.JobSecret;
import io.rewind.transport.RecordingSink;
import io.rewind.transport.TransportConformanceSuite;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A job of shared-memory transports in one JVM, one per live rank (incarnation 0), each with its own
 * view of the job's folder (as separate processes have), attached to a recording sink and told of every
 * other live rank. Each job has a secret of its own, so its folder is new; it is removed on close.
 */
final class ShmRanks implements TransportConformanceSuite.Ranks {
    final JobSecret secret;
    final Path root;
    final ShmTransport[] transports;
    final RecordingSink[] sinks;
    final BlockingQueue<String> log = new LinkedBlockingQueue<>();

    ShmRanks(Path root, int worldSize, int live, ShmOptions options) {
        byte[] key = new byte[JobSecret.BYTES];
        new SecureRandom().nextBytes(key);
        this.secret = JobSecret.of(key);
        this.root = root;
        transports = new ShmTransport[worldSize];
        sinks = new RecordingSink[worldSize];
        try {
            for (int r = 0; r < live; r++) {
                transports[r] = open(r, 0, worldSize, options.withLog(log::add));
                sinks[r] = new RecordingSink();
                transports[r].attach(r, sinks[r]);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        for (int r = 0; r < live; r++) {
            for (int p = 0; p < live; p++) {
                transports[r].peer(p, 0);
            }
        }
    }

    static ShmRanks start(int worldSize, int live) {
        return new ShmRanks(ShmFolder.root(), worldSize, live, ShmOptions.defaults());
    }

    /** A transport of this job's folder, as a process of its own would open it. */
    ShmTransport open(int rank, int incarnation, int worldSize, ShmOptions options) {
        try {
            return ShmTransport.open(
                    rank, incarnation, worldSize, ShmFolder.open(root, secret), ControlMessageCodec.INSTANCE, options);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A file of the job's folder, mapped as a process of its own would map it. */
    java.nio.MappedByteBuffer map(String name) {
        try {
            return ShmFolder.open(root, secret).map(name, 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path folder() {
        return ShmFolder.pathOf(root, secret);
    }

    @Override
    public Transport transport(int rank) {
        return transports[rank];
    }

    @Override
    public RecordingSink sink(int rank) {
        return sinks[rank];
    }

    @Override
    public void close() {
        for (ShmTransport t : transports) {
            if (t != null) {
                t.close();
            }
        }
        ShmFolder.removeFolder(root, secret);
    }
}
