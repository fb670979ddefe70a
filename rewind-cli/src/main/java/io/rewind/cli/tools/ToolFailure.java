package io.rewind.cli.tools;

/** A user error a tools command reports as one line on standard error, exit status 2. */
final class ToolFailure extends RuntimeException {
    ToolFailure(String message) {
        super(message);
    }
}
