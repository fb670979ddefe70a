package io.rewind.ft;

import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.ObjIntConsumer;
import java.util.function.UnaryOperator;

/**
 * One option a protocol declares: its command-line name, what its value looks like, its default, its
 * help and how its value is read. The command line builds an option of {@code rewind run} from each;
 * a job carries the values as text ({@link ProtocolOptions}), the canonical text {@link #parse} gives,
 * so that a rank process reads them the same way without the files a value may name.
 *
 * @param name         the option as typed, with its dashes ({@code --clusters})
 * @param paramLabel   what its value looks like in help texts ({@code K|each|node|FILE})
 * @param defaultValue the value when none is given (null: the option is absent)
 * @param description  the help paragraph
 * @param parser       a given text to its canonical text, reading any file it names; throws {@link
 *                     IllegalArgumentException} with a one-line reason
 * @param fitsJob      checks a canonical value against the job's number of ranks; throws {@link
 *                     IllegalArgumentException} with a one-line reason
 * @param placement    for a value that depends on where ranks run: the canonical value and the node of
 *                     each rank at the job's first placement to the value every rank process gets (null:
 *                     the value does not depend on it)
 */
public record ProtocolOption(
        String name,
        String paramLabel,
        String defaultValue,
        String description,
        UnaryOperator<String> parser,
        ObjIntConsumer<String> fitsJob,
        BiFunction<String, int[], String> placement) {

    public ProtocolOption {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(paramLabel, "paramLabel");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parser, "parser");
        Objects.requireNonNull(fitsJob, "fitsJob");
        if (!name.startsWith("--") || name.length() < 3) {
            throw new IllegalArgumentException("a protocol option is named --something, not " + name);
        }
    }

    /** An option whose value fits any job and does not depend on placement. */
    public static ProtocolOption of(
            String name, String paramLabel, String defaultValue, String description, UnaryOperator<String> parser) {
        return new ProtocolOption(name, paramLabel, defaultValue, description, parser, (value, ranks) -> {}, null);
    }

    /** This option, with its value checked against the job's number of ranks. */
    public ProtocolOption checkedWith(ObjIntConsumer<String> check) {
        return new ProtocolOption(name, paramLabel, defaultValue, description, parser, check, placement);
    }

    /** This option, its value fixed from the job's first placement ({@link #placement}). */
    public ProtocolOption placedWith(BiFunction<String, int[], String> place) {
        return new ProtocolOption(name, paramLabel, defaultValue, description, parser, fitsJob, place);
    }

    /** The canonical text of {@code text}. */
    public String parse(String text) {
        return parser.apply(text);
    }
}
