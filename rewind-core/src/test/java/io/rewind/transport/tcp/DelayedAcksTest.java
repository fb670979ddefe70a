package io.rewind.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rewind.transport.Await;
import io.rewind.transport.TransportConformanceSuite;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import jdk.net.ExtendedSocketOptions;
import org.junit.jupiter.api.Test;

/**
 * An inbound data connection that has been read asks the kernel to delay its acknowledgements, and asks
 * again after the kernel went back to acknowledging at once.
 */
class DelayedAcksTest {
    @Test
    void aConnectionThatWasReadDelaysItsAcknowledgements() throws Exception {
        TcpRanks r = TcpRanks.start(2, 2, TcpOptions.defaults());
        try {
            r.transport(0).send(1, TransportConformanceSuite.frame(0, 1, 0, 1, new byte[8]));
            r.sink(1).nextFrame();
            Await.until(
                    () -> !r.transports[1].inboundStreams().isEmpty(),
                    Duration.ofSeconds(10),
                    "rank 1 reads a connection from rank 0");
            SocketChannel socket = r.transports[1].inboundStreams().get(0).socket();
            assumeTrue(
                    socket.supportedOptions().contains(ExtendedSocketOptions.TCP_QUICKACK),
                    "this system offers no TCP_QUICKACK");
            // Read back, the option says whether the kernel acknowledges at once. The handshake's answer (data
            // this side sent) put the connection in delayed mode; the kernel leaves it once an acknowledgement
            // it delayed goes out by its timer, which a pause after the first frame brings about.
            assumeTrue(
                    quickAcksWithin(socket, Duration.ofSeconds(10)),
                    "this kernel kept delaying acknowledgements through a pause");
            r.transport(0).send(1, TransportConformanceSuite.frame(0, 1, 0, 2, new byte[8]));
            r.sink(1).nextFrame();
            assertFalse(socket.getOption(ExtendedSocketOptions.TCP_QUICKACK));
        } finally {
            r.close();
        }
    }

    /** Whether the kernel acknowledges {@code socket}'s data at once again within {@code timeout}. */
    private static boolean quickAcksWithin(SocketChannel socket, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!socket.getOption(ExtendedSocketOptions.TCP_QUICKACK)) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(1_000_000);
        }
        return true;
    }
}
