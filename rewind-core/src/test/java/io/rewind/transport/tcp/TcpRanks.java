package io.rewind.transport.tcp;

import io.rewind.engine.Transport;
import io.rewind.ft.ControlMessageCodec;
import io.rewind.transport.JobSecret;
import io.rewind.transport.RecordingSink;
import io.rewind.transport.TransportConformanceSuite;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A job of TCP transports on the loopback interface, one per live rank (incarnation 0), each attached
 * to a recording sink and told where every other live rank listens. Notices go to {@link #log}.
 */
final class TcpRanks implements TransportConformanceSuite.Ranks {
    static final JobSecret SECRET = JobSecret.of(TransportConformanceSuite.randomBytes(JobSecret.BYTES, 42));

    final TcpTransport[] transports;
    final RecordingSink[] sinks;
    final BlockingQueue<String> log = new LinkedBlockingQueue<>();

    private TcpRanks(int worldSize, int live, TcpOptions options) {
        transports = new TcpTransport[worldSize];
        sinks = new RecordingSink[worldSize];
        TcpOptions logged = options.withLog(log::add);
        try {
            for (int r = 0; r < live; r++) {
                transports[r] = open(r, 0, worldSize, logged);
                sinks[r] = new RecordingSink();
                transports[r].attach(r, sinks[r]);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        for (int r = 0; r < live; r++) {
            for (int p = 0; p < live; p++) {
                transports[r].peer(p, 0, transports[p].localAddress());
            }
        }
    }

    static TcpRanks start(int worldSize, int live, TcpOptions options) {
        return new TcpRanks(worldSize, live, options);
    }

    /** A transport on an ephemeral loopback port, with the job's secret and control codec. */
    static TcpTransport open(int rank, int incarnation, int worldSize, TcpOptions options) {
        return TcpTransport.open(
                rank, incarnation, worldSize, loopback(), SECRET, ControlMessageCodec.INSTANCE, options);
    }

    static InetSocketAddress loopback() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
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
        for (TcpTransport t : transports) {
            if (t != null) {
                t.close();
            }
        }
    }
}
