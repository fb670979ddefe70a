/**
 * The runtime's notices about itself ({@link io.rewind.notice.RuntimeNotices}), kept out of the ranks'
 * output. A leaf: it depends on the JDK only, so every layer (the payload log and the protocols too)
 * may print through it.
 */
package io.rewind.notice;
