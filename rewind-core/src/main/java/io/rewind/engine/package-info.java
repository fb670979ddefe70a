/**
 * The message engine: matching of point-to-point messages (posted and unexpected queues, FIFO per
 * channel), requests and their completion, communicators and collectives built on point-to-point
 * in a private context. Depends on the transport SPI and the fault-tolerance protocol SPI only.
 */
package io.rewind.engine;
