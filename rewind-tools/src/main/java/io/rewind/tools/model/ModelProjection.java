package io.rewind.tools.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The curves of the MCML paper's figure 7: relative time and energy of MCML against SCML as
 * the machine grows, one curve per omega.
 *
 * @param socketCounts x axis
 * @param omegas       one curve each
 * @param points       row-major [omega][sockets]
 */
public record ModelProjection(long[] socketCounts, double[] omegas, List<List<ExecutionModel.Comparison>> points) {

    /** The paper's range: 8,000 to 512,000 sockets, doubling. */
    public static final long[] PAPER_SOCKETS = {8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 512_000};

    public static final double[] PAPER_OMEGAS = {0.3, 0.4, 0.5, 0.6, 0.7};

    public static ModelProjection sweep(ModelParameters base, long[] sockets, double[] omegas) {
        List<List<ExecutionModel.Comparison>> rows = new ArrayList<>();
        for (double omega : omegas) {
            List<ExecutionModel.Comparison> row = new ArrayList<>();
            for (long s : sockets) {
                row.add(ExecutionModel.compare(base.withSockets(s).withOmega(omega)));
            }
            rows.add(row);
        }
        return new ModelProjection(sockets.clone(), omegas.clone(), rows);
    }
}
