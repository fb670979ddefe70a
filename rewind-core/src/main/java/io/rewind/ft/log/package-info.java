/**
 * The sender-based payload log of the fault-tolerance layer: every logging protocol keeps here a
 * copy of each message a rank sends, until the receiver's checkpoint or a recovery line makes it
 * obsolete, so that a restarted receiver can be sent again what it had already received.
 *
 * <p>Because that copy sits on the path of every send, it is the dominant failure-free cost of
 * message logging, and this package is built to make it nearly free, following "Dodging the cost
 * of unavoidable memory copies in message logging protocols": three storage backends
 * ({@link io.rewind.ft.log.StorageBackend}), three copy methods ({@link
 * io.rewind.ft.log.CopyMethod}) and a size-based {@link io.rewind.ft.log.HybridCopyPolicy} whose
 * thresholds {@link io.rewind.ft.log.CopyMethodCalibration} measures. Storage comes in fixed-size
 * blocks ({@link io.rewind.ft.log.LogBlockFormat}) so that memory is released block by block and,
 * as "Addressing the last roadblock for message logging in HPC" proposes, whole blocks can be
 * handed to dedicated logger nodes once the {@link io.rewind.ft.log.QuotaListener} reports the
 * memory quota is exceeded.
 *
 * <p>Entry point: {@link io.rewind.ft.log.PayloadLog}, one per rank; its class comment gives the
 * calls the engine makes and the threading model. docs/payload-log.md has the design and the
 * measurements.
 *
 * <p>This package is a leaf: it depends on the JDK only. It must not depend on {@code
 * io.rewind.engine}, {@code io.rewind.runtime}, {@code io.rewind.transport} or any protocol; the
 * engine and the protocols call it, never the other way round.
 */
package io.rewind.ft.log;
