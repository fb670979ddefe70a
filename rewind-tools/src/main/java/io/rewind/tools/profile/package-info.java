/**
 * Communication profiles: who sent how many bytes and messages to whom.
 *
 * <p>{@link io.rewind.tools.profile.CommProfile} is the in-memory form every analysis starts
 * from. It is filled by {@link io.rewind.tools.profile.ProfileReader} (Rewind's own
 * {@code rewind-profile 1} text format, documented in {@code docs/formats.md}), by
 * {@link io.rewind.tools.profile.DenseCsvReader} and {@link io.rewind.tools.profile.EdgeListReader}
 * (matrices exported by other tools); {@link io.rewind.tools.profile.ProfileWriter} is the one
 * writer the runtime uses. Matrices are stored sparsely so that 16,384-rank profiles fit easily
 * in memory. This package depends on nothing else in Rewind.
 */
package io.rewind.tools.profile;
