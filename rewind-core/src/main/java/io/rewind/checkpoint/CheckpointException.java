package io.rewind.checkpoint;

/** A checkpoint could not be written, read, or made sense of. The message says which file and why. */
public class CheckpointException extends RuntimeException {
    public CheckpointException(String message) {
        super(message);
    }

    public CheckpointException(String message, Throwable cause) {
        super(message, cause);
    }
}
