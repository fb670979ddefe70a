package io.rewind.ft.log;

/**
 * Chooses the copy method, and under {@link StorageBackend#HYBRID} the storage, from the message
 * size alone. The study "Dodging the cost of unavoidable memory copies in message logging
 * protocols" found that no single method wins at every size: below a few KiB the method hardly
 * matters, in the middle a copy that rides along with the transfer is best, and for long messages
 * a separate copying thread hides the copy behind the transfer. Where those boundaries fall
 * depends on the machine, hence thresholds measured by {@link CopyMethodCalibration}.
 *
 * @param pipelineThresholdBytes first size copied with {@link CopyMethod#PIPELINED}
 * @param helperThreadThresholdBytes first size copied with {@link CopyMethod#HELPER_THREAD}
 * @param mappedFileThresholdBytes first size placed in the mapped file ({@link Long#MAX_VALUE}:
 *     never by size)
 */
public record HybridCopyPolicy(
        long pipelineThresholdBytes, long helperThreadThresholdBytes, long mappedFileThresholdBytes) {

    public HybridCopyPolicy {
        if (pipelineThresholdBytes < 0 || pipelineThresholdBytes > helperThreadThresholdBytes) {
            throw new IllegalArgumentException("need 0 <= pipelineThresholdBytes <= helperThreadThresholdBytes, got "
                    + pipelineThresholdBytes + " and " + helperThreadThresholdBytes);
        }
        if (mappedFileThresholdBytes < 0) {
            throw new IllegalArgumentException("mappedFileThresholdBytes must be >= 0");
        }
    }

    /** The copy method for a message of {@code lengthBytes}. */
    public CopyMethod methodFor(long lengthBytes) {
        if (lengthBytes >= helperThreadThresholdBytes) {
            return CopyMethod.HELPER_THREAD;
        }
        if (lengthBytes >= pipelineThresholdBytes) {
            return CopyMethod.PIPELINED;
        }
        return CopyMethod.PACK;
    }

    /** Whether a message of {@code lengthBytes} goes to the mapped file by size. */
    public boolean prefersMappedFile(long lengthBytes) {
        return lengthBytes >= mappedFileThresholdBytes;
    }
}
