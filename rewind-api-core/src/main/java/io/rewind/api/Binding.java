package io.rewind.api;

import io.rewind.api.spi.RankBinding;
import java.util.Iterator;
import java.util.ServiceLoader;

/**
 * The runtime's {@link RankBinding} for this copy of the API, found once through the class loader
 * that loaded the API: under Rewind the rank's own loader, so the binding is the rank's. Null where
 * there is none (the API jar alone on the class path of a plain {@code java} run).
 */
final class Binding {
    private static final RankBinding BINDING = find();

    private Binding() {}

    static RankBinding get() {
        return BINDING;
    }

    private static RankBinding find() {
        Iterator<RankBinding> found = ServiceLoader.load(RankBinding.class, Binding.class.getClassLoader())
                .iterator();
        return found.hasNext() ? found.next() : null;
    }
}
