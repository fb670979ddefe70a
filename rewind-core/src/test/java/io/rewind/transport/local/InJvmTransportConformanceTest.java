package io.rewind.transport.local;

import io.rewind.engine.Transport;
import io.rewind.transport.RecordingSink;
import io.rewind.transport.TransportConformanceSuite;

/** The conformance suite on the in-JVM transport: one transport shared by all ranks. */
class InJvmTransportConformanceTest extends TransportConformanceSuite {
    @Override
    protected Ranks start(int worldSize, int live) {
        InJvmTransport transport = new InJvmTransport(worldSize);
        RecordingSink[] sinks = new RecordingSink[worldSize];
        for (int r = 0; r < live; r++) {
            sinks[r] = new RecordingSink();
            transport.attach(r, sinks[r]);
        }
        return new Ranks() {
            @Override
            public Transport transport(int rank) {
                return transport;
            }

            @Override
            public RecordingSink sink(int rank) {
                return sinks[rank];
            }

            @Override
            public void close() {
                transport.close();
            }
        };
    }
}
