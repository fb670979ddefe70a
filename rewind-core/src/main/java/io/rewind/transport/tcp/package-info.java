/**
 * The TCP transport: one {@link io.rewind.transport.tcp.TcpTransport} per rank process. Netty (NIO)
 * connects, accepts and runs the handshake; an authenticated connection then leaves Netty's event loop
 * and its socket is written by the sending threads themselves ({@link
 * io.rewind.transport.tcp.OutboundLink}) and read by the rank's thread while it busy-polls in a wait, or
 * by the transport's poller thread otherwise ({@link io.rewind.transport.tcp.IoPoller}).
 *
 * <p>Connections are one-way: a rank connects to each destination it sends to, at the address the
 * launcher gave it ({@code peer}), and only writes to that connection; it only reads the connections
 * others made to it. Every connection starts with a mutual handshake, big-endian:
 *
 * <pre>
 *   accepting side   challenge: 32 random bytes
 *   connecting side  hello: magic "RWND" (int 0x52574E44), version (int, 1), world rank (int),
 *                    incarnation (int), its own challenge (32 bytes), HMAC-SHA256(job secret, challenge) (32)
 *   accepting side   HMAC-SHA256(job secret, the connecting side's challenge) (32 bytes)
 * </pre>
 *
 * The accepting side installs its record decoder only once the hello's proof verifies, and the
 * connecting side sends no record before it has verified the answer. A side that fails (wrong secret,
 * bad magic or version, rank outside the job, no answer within the handshake timeout) is refused: a
 * line {@code rewind: tcp: refused ... from <address>: <reason>} on the log, and the connection closed.
 * {@link io.rewind.transport.tcp.Handshake} also runs this exchange on blocking sockets, and {@link
 * io.rewind.transport.tcp.AcceptingHandshake} and {@link io.rewind.transport.tcp.ConnectingHandshake}
 * on any Netty pipeline, for other links of a job.
 *
 * <p>After the handshake every message is a length-prefixed record:
 *
 * <pre>
 *   int  length              bytes that follow this field (1 to maxPayloadBytes + 53)
 *   byte type                1 = FRAME, 2 = CONTROL
 *   FRAME:   int context, int source, int sourceWorld, int destinationWorld, int tag,
 *            long sequence, int incarnation, int patternId, int iterationId, int line,
 *            long payload length (= length - 53), payload bytes
 *   CONTROL: the ControlCodec's bytes of the message (length - 1 of them)
 * </pre>
 *
 * The receiver checks every length against the record before it allocates anything, and refuses (one
 * logged line, that connection closed, the others untouched) a record longer than the maximum, an
 * unknown type, a payload length that disagrees with the record, a negative field, a frame for another
 * rank or from another rank than the authenticated one, and a control message that does not decode.
 * Frames and control messages of an incarnation older than the newest heard of for their rank are
 * dropped.
 *
 * <p>A frame's payload is not copied out of the connection's read buffer: the frame lends it to the
 * rank's mailbox for the delivery ({@link io.rewind.engine.FrameSink#onFrame}), and a receive already
 * posted copies it straight into its buffer; only a frame that has to wait is copied. The sockets of
 * data connections get fixed send and receive buffers where the system allows them ({@link
 * io.rewind.transport.tcp.SocketBuffers}).
 *
 * <p>Depends on the engine's transport SPI and {@link io.rewind.transport.JobSecret} only.
 */
package io.rewind.transport.tcp;
