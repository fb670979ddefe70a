package io.rewind.ft;

/**
 * A protocol from outside the registry's own list, found with {@link java.util.ServiceLoader}: a class
 * implementing this, named on one line of {@code META-INF/services/io.rewind.ft.ProtocolProvider} in
 * its jar (or test class path). That line is the whole registration: the command line, {@code rewind
 * protocols} and {@link ProtocolRegistry#get} then know the protocol and its options.
 */
public interface ProtocolProvider {
    /** The protocol's descriptor. */
    ProtocolDescriptor descriptor();
}
