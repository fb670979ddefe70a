/**
 * Checkpoint storage: the image of one rank at one recovery line (named sections of bytes), its file
 * format with a CRC, atomic writes, retention of the latest recovery lines, and detection of corrupt
 * or missing files. Depends on nothing else in Rewind.
 */
package io.rewind.checkpoint;
