package io.rewind.transport.tcp;

import io.rewind.transport.TransportConformanceSuite;

/** The conformance suite on the TCP transport: one transport per rank, over the loopback interface. */
class TcpTransportConformanceTest extends TransportConformanceSuite {
    @Override
    protected Ranks start(int worldSize, int live) {
        return TcpRanks.start(worldSize, live, TcpOptions.defaults());
    }
}
