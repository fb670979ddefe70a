package io.rewind.transport.shm;

import io.rewind.transport.TransportConformanceSuite;

/** The conformance suite on the shared-memory transport: one transport per rank, rings in the job's folder. */
class ShmTransportConformanceTest extends TransportConformanceSuite {
    @Override
    protected Ranks start(int worldSize, int live) {
        return ShmRanks.start(worldSize, live);
    }
}
