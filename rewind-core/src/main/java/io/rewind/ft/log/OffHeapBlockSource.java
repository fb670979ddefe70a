package io.rewind.ft.log;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Off-heap blocks of one fixed size. Each block has its own shared arena so that it can be freed
 * on its own the moment a checkpoint makes its contents obsolete (one arena for the whole log could
 * only be freed all at once); shared because the helper copier thread writes into it. A few freed
 * blocks are kept as spares, since re-faulting fresh pages after every checkpoint costs more than
 * the copy itself for short messages.
 *
 * <h2>Spare blocks</h2>
 *
 * Copying into a freshly allocated block costs a page fault (and the zeroing) every 4 KiB, which
 * runs an order of magnitude slower than copying into a block already touched; a log that hands its
 * blocks back at every checkpoint and allocates them again in the next interval pays that on every
 * logged byte. So a freed block is kept as a spare while in-use plus spare blocks stay within the
 * off-heap high-water mark of the current or the previous checkpoint interval (an interval ends
 * when the log is truncated after appends, see {@link #onIntervalEnd}). At least {@code
 * spareBlocks} spares are always allowed, and at most {@code spareLimitBytes} of spares beyond
 * that. Bound: spares never exceed {@code max(spareBlocks, min(spareLimitBytes / blockBytes,
 * highWater(previous interval) - inUse))} after an interval ends, so steady-state logging reuses
 * the same blocks and never faults, while a log that shrinks for good gives its memory back at the
 * end of the first smaller interval. The peak footprint is never raised: a spare is memory the log
 * held at its last peak.
 *
 * <h2>Mapped blocks and huge pages</h2>
 *
 * Where the platform allows it ({@link AnonymousMemory}), blocks are mapped by the log itself rather
 * than taken from the JVM's native allocation, which zeroes (and so faults in) a whole block at
 * once: a mapped block is faulted in as it is written, so a rank that logs little holds little,
 * whatever the block size. With {@code hugePages} and a block size that is a multiple of 2 MiB, the
 * blocks of a log that already holds {@value #SMALL_PAGE_BLOCKS} blocks are also advised for
 * transparent huge pages: such a log cycles through more memory than the TLB covers in 4 KiB pages,
 * while a small log would only pay for whole huge pages it does not fill. If the system refuses the
 * advice, or a mapping, the log goes on without it (or with the JVM's allocation) for the rest of
 * its life; the memory behaves the same.
 *
 * <h2>Blocks prepared ahead</h2>
 *
 * A log that only grows (the whole time between two checkpoints of a receiver) writes every
 * message into memory nobody has touched. Faulting that memory in on the writer's first write costs
 * far more than the copy itself (on a virtual machine, 0.3-0.8 GB/s against 18 GB/s into memory
 * already touched; docs/benchmarks.md). So once a log holds more than its first few blocks, the
 * blocks it will need next are faulted in ahead ({@link AnonymousMemory#populate}) by the JVM's
 * {@link LogMemoryPreparer} thread and wait, ready, until the writer takes them. How many: what
 * the log's measured growth rate consumes in {@link #READY_AHEAD_NANOS} less its spares, at most half the blocks in
 * use and at most {@link #READY_LIMIT_BYTES}; they count against the off-heap limit and show in
 * {@link #readyBytes}. When none is ready the writer populates its next block itself, which still
 * beats faulting it in page by page.
 *
 * <h2>A reserve faulted in before the first message</h2>
 *
 * Preparing ahead moves the faulting off the writer's path but not out of the job: a log that
 * grows faster than the machine hands out new memory (a virtual machine whose host takes freed
 * memory back hands it out at 0.5-1 GB/s, a long-message ping-pong logs 10 GB/s) still waits for
 * it. A log given a reserve ({@code reserveBytes}, sized from the growth a profile or an earlier run
 * measured between two checkpoints) maps and faults in that many blocks when it opens, before the
 * rank sends anything, and keeps them as spares; the writer then takes memory already touched
 * until the reserve is used up, as a log recycling its blocks does. The reserve is never given back
 * while the log is open (a truncated log keeps at least that many blocks, in use or spare), and
 * counts against the off-heap limit.
 *
 * <h2>Freeing without unmapping</h2>
 *
 * A mapped block that is freed gives its memory back ({@link AnonymousMemory#discard}) but keeps
 * its addresses, and is mapped again from that cold list before any new mapping is made. No block
 * is unmapped before the source closes, so freeing never closes an arena: closing a shared arena
 * stops every thread of the JVM in a handshake, which a block per checkpoint interval made a
 * steady cost. The addresses kept are bounded by the most blocks the log ever held at once. The
 * mapped blocks all belong to one arena, closed with the source.
 */
final class OffHeapBlockSource implements BlockSource {

    /** Cache-line alignment: copies into a block start on a line boundary. */
    private static final long ALIGNMENT_BYTES = 64;

    /** Blocks a log holds before further blocks are advised for huge pages and prepared ahead. */
    static final int SMALL_PAGE_BLOCKS = 2;

    /** How far ahead of the writer blocks are prepared, in time at the log's growth rate. */
    static final long READY_AHEAD_NANOS = 50_000_000L;

    /** The machine's available memory (tests stand in a smaller machine). */
    static volatile java.util.function.LongSupplier availableMemory = SystemMemory::availableBytes;

    /** Serialises the reserves of the logs of this JVM (see {@link #reserve}). */
    private static final Object RESERVE_LOCK = new Object();

    /** Most memory a log holds in blocks prepared ahead. */
    static final long READY_LIMIT_BYTES = 8L << 20;

    private final long blockBytes;
    /** Blocks beyond the first few are faulted in ahead by the preparer, else by their writer. */
    private final boolean prepareAhead;

    private final int spareBlocks;
    private final long spareLimitBlocks;
    /** Blocks faulted in when the log opens and never given back while it is open. */
    private final int reserveBlocks;

    private final long limitBytes;

    /** Blocks are mapped by the log (faulted in as written); cleared for good once a mapping fails. */
    private volatile boolean mapped;
    /** Blocks beyond the first few are advised for huge pages; cleared for good once refused. */
    private volatile boolean hugePages;
    /** Guards {@link #mappedArena}: the writer and the preparer both map blocks. */
    private final Object mappingLock = new Object();
    /** The arena of every mapped block, made at the first mapping and closed with the source. */
    private Arena mappedArena;
    /** Most blocks in use at once during the current interval. */
    private int currentHighWaterBlocks;
    /** Most blocks in use at once during the interval before. */
    private int previousHighWaterBlocks;
    /** When the log last took a block that was not a spare (its growth), and the smoothed interval. */
    private long lastGrowthNanos;

    private long growthIntervalNanos;

    private final ArrayDeque<StorageBlock> spares = new ArrayDeque<>();
    /** Mapped blocks whose memory was given back: addresses to map again before any new mapping. */
    private final ArrayDeque<StorageBlock> cold = new ArrayDeque<>();

    private final Set<StorageBlock> inUse = Collections.newSetFromMap(new IdentityHashMap<>());

    /** Guards {@link #ready}, {@link #preparing} and {@link #closing}, shared with the preparer. */
    private final Object readyLock = new Object();

    private final ArrayDeque<StorageBlock> ready = new ArrayDeque<>();
    private int preparing;
    private boolean closing;

    OffHeapBlockSource(long blockBytes, int spareBlocks, long spareLimitBytes, long limitBytes, boolean hugePages) {
        this(blockBytes, spareBlocks, spareLimitBytes, limitBytes, hugePages, true, 0);
    }

    OffHeapBlockSource(
            long blockBytes,
            int spareBlocks,
            long spareLimitBytes,
            long limitBytes,
            boolean hugePages,
            boolean prepareAhead,
            long reserveBytes) {
        this.blockBytes = blockBytes;
        this.reserveBlocks = (int) Math.min(limitBytes / blockBytes, (reserveBytes + blockBytes - 1) / blockBytes);
        this.prepareAhead = prepareAhead;
        this.mapped = AnonymousMemory.supported();
        this.hugePages = mapped && hugePages && blockBytes % AnonymousMemory.HUGE_PAGE_BYTES == 0;
        this.spareBlocks = spareBlocks;
        this.spareLimitBlocks = spareLimitBytes / blockBytes;
        this.limitBytes = limitBytes;
    }

    /** How many spares may be kept now. */
    int spareAllowance() {
        long coverHighWater = (long) Math.max(previousHighWaterBlocks, currentHighWaterBlocks) - inUse.size();
        long coverReserve = (long) reserveBlocks - inUse.size();
        return (int) Math.max(Math.max(spareBlocks, coverReserve), Math.min(spareLimitBlocks, coverHighWater));
    }

    /**
     * Maps and faults in the reserve, on the calling thread (the one opening the log, before its
     * rank sends anything), and keeps it as spares. Blocks past the first few are advised for huge
     * pages, as they would be when the log reached them. Where blocks cannot be mapped they come
     * from the JVM's allocation, which touches them too. The reserve stops short where the machine
     * would be left with less than {@link #reserveMarginBytes} available, or where the system refuses
     * a block; the log keeps what it got and goes on: the reserve is an optimisation, never a condition.
     *
     * @return the bytes reserved
     */
    long reserve() {
        synchronized (RESERVE_LOCK) { // one log at a time, so each sees what the others left
            for (int i = spares.size(); i < reserveBlocks; i++) {
                if (!memoryLeftFor(blockBytes)) {
                    break;
                }
                if (!reserveOne(i)) {
                    break;
                }
            }
        }
        return spareBytes();
    }

    /**
     * Whether the machine can give {@code bytes} more and keep {@link #reserveMarginBytes} free: a
     * reserve larger than the memory there is would get the process killed by the kernel, with no
     * word to anyone, rather than fail.
     */
    private static boolean memoryLeftFor(long bytes) {
        long available = availableMemory.getAsLong();
        return available < 0 || available - bytes >= reserveMarginBytes();
    }

    /** Memory a reserve leaves to everything else: an eighth of the machine, at least 512 MiB. */
    static long reserveMarginBytes() {
        long total = SystemMemory.totalBytes();
        return Math.max(512L << 20, total < 0 ? 0 : total / 8);
    }

    /** Maps and faults in the {@code i}-th block of the reserve; false if the system refused. */
    private boolean reserveOne(int i) {
        StorageBlock block;
        try {
            block = mapped ? mapBlock(i >= SMALL_PAGE_BLOCKS) : null;
            if (block == null) {
                block = allocatedBlock(); // zeroed by the JVM: already faulted in
            } else {
                AnonymousMemory.populate(block.segment);
            }
        } catch (RuntimeException e) {
            return false;
        }
        spares.addLast(block);
        return true;
    }

    @Override
    public void onIntervalEnd() {
        previousHighWaterBlocks = currentHighWaterBlocks;
        currentHighWaterBlocks = inUse.size();
        int allowed = spareAllowance();
        while (spares.size() > allowed) {
            free(spares.pollLast());
        }
    }

    private void free(StorageBlock block) {
        if (block.arena == null) { // a mapped block: give the memory back, keep the addresses
            AnonymousMemory.discard(block.segment);
            cold.addFirst(block);
        } else {
            block.arena.close();
            block.segment = null;
        }
    }

    private void noteInUse(StorageBlock block) {
        inUse.add(block);
        currentHighWaterBlocks = Math.max(currentHighWaterBlocks, inUse.size());
    }

    @Override
    public StorageBlock allocate(long capacityBytes) {
        if (capacityBytes != blockBytes) {
            throw new IllegalArgumentException("off-heap blocks are all " + blockBytes + " bytes");
        }
        StorageBlock block = spares.pollFirst();
        if (block != null) {
            block.resetForReuse();
            noteInUse(block);
            return block;
        }
        noteGrowth();
        block = takeReady();
        if (block == null) {
            block = writerBlock();
        }
        noteInUse(block);
        prepareAhead();
        return block;
    }

    /**
     * A prepared block, or null if none is ready. At the off-heap limit, with blocks still being
     * prepared, waits for one of them: they hold the memory a new block would need.
     */
    private StorageBlock takeReady() {
        boolean interrupted = false;
        try {
            synchronized (readyLock) {
                if (ready.isEmpty() && preparing > 0 && heldBytes() + blockBytes > limitBytes) {
                    while (ready.isEmpty() && preparing > 0) {
                        try {
                            readyLock.wait();
                        } catch (InterruptedException e) {
                            interrupted = true;
                        }
                    }
                }
                return ready.pollFirst();
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The log took a block that was not a spare: it grows. Smooths the interval between two. */
    private void noteGrowth() {
        long now = System.nanoTime();
        if (lastGrowthNanos != 0) {
            long interval = Math.max(1, now - lastGrowthNanos);
            growthIntervalNanos = growthIntervalNanos == 0 ? interval : (3 * growthIntervalNanos + interval) / 4;
        }
        lastGrowthNanos = now;
    }

    /** Whether the log holds enough blocks for further ones to get huge pages and be prepared. */
    private boolean beyondFirstBlocks() {
        return inUse.size() + spares.size() + readyAndPreparing() >= SMALL_PAGE_BLOCKS;
    }

    private int readyAndPreparing() {
        synchronized (readyLock) {
            return ready.size() + preparing;
        }
    }

    /** Blocks to keep prepared now: the growth of {@link #READY_AHEAD_NANOS}, within the bounds. */
    int readyTarget() {
        if (!prepareAhead || !mapped || growthIntervalNanos == 0 || inUse.size() < SMALL_PAGE_BLOCKS) {
            return 0;
        }
        long byRate = (READY_AHEAD_NANOS + growthIntervalNanos - 1) / growthIntervalNanos;
        long bound = Math.min(Math.max(1, READY_LIMIT_BYTES / blockBytes), Math.max(1, inUse.size() / 2));
        return (int) Math.min(byRate, bound);
    }

    /**
     * Asks the preparer for the blocks that bring the ready ones and the spares up to {@link
     * #readyTarget}: cold
     * blocks first, else new mappings made by the preparer. The writer makes no system call for
     * them: a mapping or a huge-page advice takes the process's mapping lock for writing, which would
     * wait for the preparer's population of a block (it holds that lock for reading) to end.
     */
    private void prepareAhead() {
        // Spares are as good as ready blocks (faulted in and warm): a log that grows back to its last
        // peak after a checkpoint takes those and needs nothing prepared.
        int missing = readyTarget() - readyAndPreparing() - spares.size();
        for (int i = 0; i < missing && mapped && heldBytes() + blockBytes <= limitBytes; i++) {
            StorageBlock reuse = cold.pollFirst();
            synchronized (readyLock) {
                preparing++;
            }
            LogMemoryPreparer.submit(this, reuse, hugePages);
        }
    }

    /**
     * On the preparer's thread: maps a block (or takes {@code reuse}, a cold one), advises it for
     * huge pages if asked, faults it in and makes it ready; unless the source is closing, then it
     * only counts the request out (closing unmaps the block). A block that cannot be faulted in is
     * still made ready: its writer faults it in.
     */
    void prepare(StorageBlock reuse, boolean adviseHugePages) {
        StorageBlock block = reuse;
        boolean closed;
        synchronized (readyLock) {
            closed = closing;
        }
        try {
            if (!closed) {
                if (block == null) {
                    block = mapBlock(adviseHugePages);
                } else if (adviseHugePages) {
                    adviseHugePages(block);
                }
                if (block != null) {
                    AnonymousMemory.populate(block.segment);
                }
            }
        } catch (RuntimeException e) {
            // The block stays usable unprepared (or, if none could be mapped, none is made ready).
        } finally {
            synchronized (readyLock) {
                preparing--;
                if (!closing && block != null) {
                    block.resetForReuse();
                    ready.addLast(block);
                } else if (closing && preparing == 0) {
                    closeMappedArena(); // the source closed while this block was being prepared
                }
                readyLock.notifyAll();
            }
        }
    }

    /** Memory this source holds: blocks in use, spare, ready and being prepared. */
    private long heldBytes() {
        return inUseBytes() + spareBytes() + (long) readyAndPreparing() * blockBytes;
    }

    /**
     * A block for the writer when no spare and no prepared block is there: a cold one mapped again,
     * or a new mapping (the JVM's allocation where mapping is impossible); beyond the first blocks it
     * is advised for huge pages and faulted in here and now, since the writer is about to fill it.
     */
    private StorageBlock writerBlock() {
        if (heldBytes() + blockBytes > limitBytes) {
            throw new PayloadLogException(
                    PayloadLogException.Reason.STORAGE_EXHAUSTED,
                    "a new off-heap block of " + blockBytes + " bytes would bring the log to "
                            + (heldBytes() + blockBytes) + " bytes, over offHeapLimitBytes=" + limitBytes);
        }
        boolean beyondFirst = beyondFirstBlocks();
        StorageBlock block = cold.pollFirst();
        if (block != null) {
            block.resetForReuse();
            if (beyondFirst) {
                adviseHugePages(block);
            }
        } else {
            block = mapped ? mapBlock(beyondFirst) : null;
            if (block == null) {
                return allocatedBlock();
            }
        }
        if (beyondFirst && prepareAhead) {
            AnonymousMemory.populate(block.segment);
        }
        return block;
    }

    /** Advises a mapped block for huge pages, if this source uses them and it is not advised yet. */
    private void adviseHugePages(StorageBlock block) {
        if (hugePages && !block.hugePagesAdvised) {
            try {
                AnonymousMemory.adviseHugePages(block.segment);
                block.hugePagesAdvised = true;
            } catch (IllegalStateException e) {
                hugePages = false; // no advice from now on
            }
        }
    }

    /** A block of the JVM's native allocation, in an arena of its own. */
    private StorageBlock allocatedBlock() {
        Arena arena = Arena.ofShared();
        try {
            return new StorageBlock(this, blockBytes, -1, arena, arena.allocate(blockBytes, ALIGNMENT_BYTES));
        } catch (OutOfMemoryError e) {
            // Native allocation failure surfaces as OutOfMemoryError; it concerns this block only.
            arena.close();
            throw new PayloadLogException(
                    PayloadLogException.Reason.ALLOCATION_FAILED,
                    "cannot allocate an off-heap block of " + blockBytes + " bytes (" + e.getMessage() + ")",
                    e);
        }
    }

    /**
     * A block mapped by the log (on the writer's or the preparer's thread), or null (and no more
     * mapping) if the system refuses a mapping.
     */
    private StorageBlock mapBlock(boolean adviseHugePages) {
        synchronized (mappingLock) {
            if (!mapped) {
                return null;
            }
            if (mappedArena == null) {
                mappedArena = Arena.ofShared();
            }
            boolean advise = hugePages && adviseHugePages;
            MemorySegment segment;
            try {
                segment = AnonymousMemory.map(blockBytes, mappedArena, advise);
            } catch (IllegalStateException e) {
                if (!advise) {
                    mapped = false;
                    return null;
                }
                hugePages = false; // no advice from now on; a plain mapping may still do
                return mapBlock(false);
            }
            StorageBlock block = new StorageBlock(this, blockBytes, -1, null, segment);
            block.hugePagesAdvised = advise;
            return block;
        }
    }

    /** Whether blocks beyond the first few are advised for huge pages. */
    boolean usesHugePages() {
        return hugePages;
    }

    /** Whether blocks are mapped by the log rather than allocated by the JVM. */
    boolean mapsBlocks() {
        return mapped;
    }

    @Override
    public void onRetiredAndIdle(StorageBlock block) {
        // Memory blocks stay readable until released.
    }

    @Override
    public void release(StorageBlock block) {
        inUse.remove(block);
        block.released = true;
        if (spares.size() < spareAllowance()) {
            spares.addFirst(block); // most recently used first: its pages are the likeliest to be cached
        } else {
            free(block);
        }
    }

    @Override
    public MemorySegment readView(StorageBlock block, Arena scratch) {
        return block.segment;
    }

    @Override
    public long inUseBytes() {
        return inUse.size() * blockBytes;
    }

    @Override
    public long spareBytes() {
        return spares.size() * blockBytes;
    }

    @Override
    public long readyBytes() {
        return (long) readyAndPreparing() * blockBytes;
    }

    @Override
    public long mappedBytes() {
        return 0;
    }

    /** Blocks ready for the writer now (tests). */
    int readyBlocks() {
        synchronized (readyLock) {
            return ready.size();
        }
    }

    /**
     * Waits until the preparer has answered every request of this source (tests); once the source is
     * closed, its mapped blocks are unmapped when this returns.
     */
    void awaitPrepared() {
        boolean interrupted = false;
        synchronized (readyLock) {
            while (preparing > 0) {
                try {
                    readyLock.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        boolean blocksInPreparation;
        synchronized (readyLock) {
            closing = true;
            preparing -= LogMemoryPreparer.withdraw(this);
            ready.clear();
            blocksInPreparation = preparing > 0;
        }
        for (StorageBlock block : inUse) {
            closeBlock(block);
        }
        inUse.clear();
        for (StorageBlock block : spares) {
            closeBlock(block);
        }
        spares.clear();
        for (StorageBlock block : cold) {
            block.segment = null;
        }
        cold.clear();
        if (!blocksInPreparation) {
            closeMappedArena();
        }
        // Otherwise the preparer closes the arena when it is done with the block it is preparing:
        // the arena cannot be closed while a call into the kernel holds one of its segments, and
        // the thread that closes a log (a recovery, for a killed rank) must not wait for a thread
        // that only runs on cores nobody else wants.
    }

    /** Unmaps every mapped block; idempotent. */
    private void closeMappedArena() {
        synchronized (mappingLock) {
            if (mappedArena != null) {
                mappedArena.close();
                mappedArena = null;
            }
        }
    }

    private static void closeBlock(StorageBlock block) {
        if (block.arena != null) {
            block.arena.close();
        }
        block.segment = null;
    }
}
