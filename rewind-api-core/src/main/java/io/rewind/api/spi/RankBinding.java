package io.rewind.api.spi;

/**
 * What a Rewind rank gives {@code io.rewind.api}: the runtime implements this interface and names its
 * implementation in {@code META-INF/services/io.rewind.api.spi.RankBinding}; the API finds it with
 * {@link java.util.ServiceLoader} through the class loader that loaded the API. Under Rewind that is
 * the rank's own loader, which defines the API and the binding afresh for every rank, so each rank's
 * binding reaches that rank. Where no binding is found (the program run with plain {@code java} and
 * the API jar only) the API keeps nothing and communicates nothing.
 *
 * <p>Programs do not use this package; it is the contract between the API and the runtime.
 */
public interface RankBinding {
    /** The rank's checkpoints, or null where nothing is kept (outside a rank launched by Rewind). */
    RankCheckpoints checkpoints();

    /** The rank's communication patterns, looked up again at each call (a restarted rank has new ones). */
    RankPatterns patterns();
}
