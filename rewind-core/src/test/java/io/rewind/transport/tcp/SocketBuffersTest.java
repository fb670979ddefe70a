package io.rewind.transport.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rewind.transport.Await;
import io.rewind.transport.TransportConformanceSuite;
import java.net.StandardSocketOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Fixed socket buffers are asked for only where the system's maxima allow them, and the data
 * connections get them.
 */
class SocketBuffersTest {
    private static final int MIB = 1 << 20;

    @Test
    void aSizeBothMaximaAllowIsAskedFor() {
        assertEquals(4 * MIB, SocketBuffers.sizeFor(4 * MIB, 4 * MIB, 8 * MIB));
    }

    @Test
    void aSizeAboveEitherMaximumLeavesTheKernelsAutotuning() {
        // The usual default maximum (208 KiB): asking for more would get less than autotuning gives.
        assertEquals(0, SocketBuffers.sizeFor(4 * MIB, 212_992, 8 * MIB));
        assertEquals(0, SocketBuffers.sizeFor(4 * MIB, 8 * MIB, 212_992));
    }

    @Test
    void unknownMaximaOrNoSizeLeaveTheKernelsAutotuning() {
        assertEquals(0, SocketBuffers.sizeFor(4 * MIB, -1, -1));
        assertEquals(0, SocketBuffers.sizeFor(0, 8 * MIB, 8 * MIB));
    }

    @Test
    void aNegativeSizeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> TcpOptions.defaults().withSocketBufferBytes(-1));
    }

    @Test
    void theDataConnectionsGetTheBuffersWhereTheSystemAllowsThem() throws Exception {
        assumeTrue(
                SocketBuffers.sizeFor(SocketBuffers.DEFAULT_BYTES) > 0,
                "this system's socket buffer maxima are below " + SocketBuffers.DEFAULT_BYTES);
        TcpRanks r = TcpRanks.start(2, 2, TcpOptions.defaults());
        try {
            r.transport(0).send(1, TransportConformanceSuite.frame(0, 1, 0, 1, new byte[8]));
            r.sink(1).nextFrame();
            Await.until(
                    () -> !r.transports[1].inboundStreams().isEmpty(),
                    Duration.ofSeconds(10),
                    "rank 1 reads a connection from rank 0");
            int receive = r.transports[1].inboundStreams().get(0).socket().getOption(StandardSocketOptions.SO_RCVBUF);
            // Linux doubles what is asked for (the other half is its bookkeeping).
            assertTrue(receive >= SocketBuffers.DEFAULT_BYTES, "receive buffer " + receive);
        } finally {
            r.close();
        }
    }
}
