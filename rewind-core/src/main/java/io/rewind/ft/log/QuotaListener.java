package io.rewind.ft.log;

/**
 * Told, on the appending thread and after the entry is safely recorded, whenever an append leaves
 * the log over its quota. The entry is never dropped because of the quota: the listener decides
 * what to do (memory-constrained logging stops logging some channels, a logger-node client ships
 * full blocks away). It may call back into the log (statistics, truncate) but should be quick,
 * since it runs inside the application's send call. With several appending threads it can be
 * called concurrently.
 */
@FunctionalInterface
public interface QuotaListener {

    void onQuotaExceeded(QuotaEvent event);
}
