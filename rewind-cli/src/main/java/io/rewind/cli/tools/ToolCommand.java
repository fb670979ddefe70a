package io.rewind.cli.tools;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rewind.tools.profile.CommProfile;
import io.rewind.tools.profile.InputFormatException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Base of the tools commands: turns bad input into a one-line error and exit status 2 instead
 * of a stack trace, and gives text/JSON output helpers.
 */
abstract class ToolCommand implements Callable<Integer> {

    static final int EXIT_BAD_INPUT = 2;
    static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    @Override
    public final Integer call() {
        try {
            return execute();
        } catch (InputFormatException | ToolFailure | IllegalArgumentException | UncheckedIOException e) {
            String message = e instanceof UncheckedIOException u && u.getCause() != null
                    ? e.getMessage() + ": " + u.getCause().getMessage()
                    : e.getMessage();
            err().println("rewind " + spec.qualifiedName(" ").replaceFirst("^\\S+\\s*", "") + ": " + message);
            err().flush();
            return EXIT_BAD_INPUT;
        }
    }

    abstract int execute();

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    void printJson(Object value) {
        try {
            out().println(JSON.writeValueAsString(value));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        out().flush();
    }

    /** Prints the reader's notes (self-sends set aside, ...) so nothing is excluded silently. */
    void printNotes(CommProfile profile) {
        for (String note : profile.notes()) {
            out().println("note: " + note);
        }
    }
}
