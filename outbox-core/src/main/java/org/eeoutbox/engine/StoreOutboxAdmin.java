package org.eeoutbox.engine;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.eeoutbox.OutboxStatus;
import org.eeoutbox.admin.ActionOutcome;
import org.eeoutbox.admin.AdminAction;
import org.eeoutbox.admin.BulkRequest;
import org.eeoutbox.admin.BulkResult;
import org.eeoutbox.admin.EntryDetails;
import org.eeoutbox.admin.EntryFilter;
import org.eeoutbox.admin.EntryPage;
import org.eeoutbox.admin.EntryView;
import org.eeoutbox.admin.OutboxAdmin;
import org.eeoutbox.admin.OutboxOverview;
import org.eeoutbox.admin.PageRequest;
import org.eeoutbox.admin.BlockedKey;
import org.eeoutbox.admin.Pause;
import org.eeoutbox.spi.OutboxAdminStore;
import org.eeoutbox.spi.OutboxStore;
import org.eeoutbox.spi.TransactionRunner;

/**
 * The {@link OutboxAdmin} on an {@link OutboxAdminStore}: each method in a new transaction of the
 * {@link TransactionRunner}, bulk operations in transactions of {@link BulkRequest#BATCH_SIZE}
 * entries at most.
 *
 * <p>A replay keeps the entry's last error and last attempt time (an operator listing replayed
 * entries still sees why they failed; the next attempt overwrites them, a delivery clears the
 * error) and its failure history. A single-entry change locks the entry without waiting: an entry
 * another transaction holds is {@link ActionOutcome#BUSY} when its committed status is
 * {@code PENDING} (a batch is delivering it), and {@link ActionOutcome#WRONG_STATUS} otherwise
 * (another operator's change of it is committing: of two concurrent replays, one is
 * {@code DONE} and the other {@code WRONG_STATUS}).
 *
 * <p>Every change is logged at {@code INFO} under this class's name with the caller, then handed
 * to the audit consumer, after its commit. Thread-safe.
 */
public final class StoreOutboxAdmin implements OutboxAdmin {

    private static final Logger LOG = System.getLogger(StoreOutboxAdmin.class.getName());

    /** The caller recorded when none is known. */
    public static final String UNKNOWN_CALLER = "unknown";

    private static final Set<OutboxStatus> REPLAYABLE = EnumSet.of(OutboxStatus.FAILED, OutboxStatus.DISCARDED);
    private static final Set<OutboxStatus> DISCARDABLE = EnumSet.of(OutboxStatus.PENDING, OutboxStatus.FAILED);
    private static final int MAX_DELIVERY_TYPE_LENGTH = 64;
    private static final int MAX_CALLER_LENGTH = 255;
    /** The instants both databases store (MySQL's DATETIME ends at year 9999 and starts at 1000). */
    private static final Instant EARLIEST = Instant.parse("1000-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

    private final OutboxAdminStore admin;
    private final OutboxStore store;
    private final TransactionRunner transactions;
    private final Clock clock;
    private final Supplier<String> caller;
    private final Consumer<AdminAction> audit;
    private final DoubleSupplier random;

    /**
     * @param caller the current caller's name, asked at each change; {@code null}, blank or a
     *               throw give {@value #UNKNOWN_CALLER}
     * @param audit  told of each committed change; what it throws is logged and dropped
     */
    public StoreOutboxAdmin(OutboxAdminStore admin, OutboxStore store, TransactionRunner transactions, Clock clock,
                            Supplier<String> caller, Consumer<AdminAction> audit) {
        this(admin, store, transactions, clock, caller, audit, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** As the public constructor, with the source of the due-time spread given, for tests. */
    StoreOutboxAdmin(OutboxAdminStore admin, OutboxStore store, TransactionRunner transactions, Clock clock,
                     Supplier<String> caller, Consumer<AdminAction> audit, DoubleSupplier random) {
        this.admin = Objects.requireNonNull(admin, "admin");
        this.store = Objects.requireNonNull(store, "store");
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.caller = Objects.requireNonNull(caller, "caller");
        this.audit = Objects.requireNonNull(audit, "audit");
        this.random = Objects.requireNonNull(random, "random");
    }

    @Override
    public EntryPage list(EntryFilter filter, PageRequest page) {
        requireFilter(filter);
        requireArgument("page", page);
        UUID before = page.after() == null ? null : PageToken.decode(page.after());
        List<EntryView> views = transactions.inNewTransaction(
                () -> admin.list(filter, before, page.size() + 1, page.includePayload()));
        if (views.size() <= page.size()) {
            return new EntryPage(views, null);
        }
        List<EntryView> entries = views.subList(0, page.size());
        return new EntryPage(entries, PageToken.encode(entries.get(entries.size() - 1).id()));
    }

    @Override
    public Optional<EntryDetails> get(UUID id) {
        requireArgument("id", id);
        return transactions.inNewTransaction(
                () -> admin.find(id).map(entry -> new EntryDetails(entry, admin.failures(id))));
    }

    @Override
    public ActionOutcome replay(UUID id) {
        requireArgument("id", id);
        return changeOne(AdminAction.REPLAY, id, REPLAYABLE, now -> admin.replay(Map.of(id, now), now));
    }

    @Override
    public BulkResult replay(EntryFilter filter, BulkRequest request) {
        return changeAll(AdminAction.REPLAY, filter, request, REPLAYABLE, (ids, now) -> {
            Map<UUID, Instant> dueTimes = new LinkedHashMap<>();
            long spreadMicros = request.spread().toNanos() / 1000;
            for (UUID id : ids) {
                dueTimes.put(id, now.plus((long) (random.getAsDouble() * spreadMicros), ChronoUnit.MICROS));
            }
            return admin.replay(dueTimes, now);
        });
    }

    @Override
    public ActionOutcome discard(UUID id) {
        requireArgument("id", id);
        return changeOne(AdminAction.DISCARD, id, DISCARDABLE, now -> admin.discard(List.of(id), now));
    }

    @Override
    public BulkResult discard(EntryFilter filter, BulkRequest request) {
        return changeAll(AdminAction.DISCARD, filter, request, DISCARDABLE, admin::discard);
    }

    @Override
    public OutboxOverview overview(Duration stuckAfter) {
        if (stuckAfter == null || stuckAfter.isNegative()) {
            throw new IllegalArgumentException("stuckAfter must be zero or positive, got: " + stuckAfter);
        }
        Instant now = now();
        return transactions.inNewTransaction(() -> new OutboxOverview(admin.countsPerStatusAndType(),
                store.stats(now).oldestPendingAge(), admin.countPendingDueBefore(now.minus(stuckAfter)),
                admin.paused()));
    }

    @Override
    public void pause(String deliveryType) {
        requireDeliveryType(deliveryType);
        String who = caller();
        Instant now = now();
        if (transactions.inNewTransaction(() -> admin.pause(new Pause(deliveryType, now, who)))) {
            committed(AdminAction.PAUSE, deliveryType, 1, who);
        }
    }

    @Override
    public void resume(String deliveryType) {
        requireDeliveryType(deliveryType);
        String who = caller();
        if (transactions.inNewTransaction(() -> admin.resume(deliveryType))) {
            committed(AdminAction.RESUME, deliveryType, 1, who);
        }
    }

    @Override
    public List<Pause> paused() {
        return transactions.inNewTransaction(admin::paused);
    }

    @Override
    public List<BlockedKey> blockedKeys(int limit) {
        if (limit < 1 || limit > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("limit must be in [1, " + MAX_PAGE_SIZE + "], got: " + limit);
        }
        return transactions.inNewTransaction(() -> admin.blockedKeys(limit));
    }

    /** Locks the entry without waiting, checks its status, applies {@code change}: one transaction. */
    private ActionOutcome changeOne(String action, UUID id, Set<OutboxStatus> allowed,
                                    ToIntFunction<Instant> change) {
        String who = caller();
        Instant now = now();
        ActionOutcome outcome = transactions.inNewTransaction(() -> {
            Optional<OutboxStatus> status = admin.lock(id);
            if (status.isEmpty()) {
                Optional<OutboxStatus> committed = admin.status(id);
                if (committed.isEmpty()) {
                    return ActionOutcome.NOT_FOUND;
                }
                if (committed.get() != OutboxStatus.PENDING) {
                    return ActionOutcome.WRONG_STATUS;
                }
                // Held while PENDING: a batch delivering it, or a change that has just committed
                // PENDING and let go since (then the second lock gets it).
                status = admin.lock(id);
                if (status.isEmpty()) {
                    return ActionOutcome.BUSY;
                }
            }
            if (!allowed.contains(status.get())) {
                return ActionOutcome.WRONG_STATUS;
            }
            change.applyAsInt(now);
            return ActionOutcome.DONE;
        });
        if (outcome == ActionOutcome.DONE) {
            committed(action, id.toString(), 1, who);
        }
        return outcome;
    }

    /** Changes one batch of locked entries at {@code now}; returns how many changed. */
    @FunctionalInterface
    private interface BatchChange {
        int apply(List<UUID> ids, Instant now);
    }

    private record Batch(List<UUID> ids, int changed) {
    }

    /**
     * Counts the matching entries, refuses more than the maximum, then changes them in batches,
     * each in its own transaction, walking the ids upwards and skipping entries others hold.
     */
    private BulkResult changeAll(String action, EntryFilter filter, BulkRequest request, Set<OutboxStatus> allowed,
                                 BatchChange change) {
        requireFilter(filter);
        requireArgument("request", request);
        EntryFilter matching = narrowed(filter, allowed);
        if (matching == null) {
            return new BulkResult(0, 0, request.dryRun());
        }
        long matched = transactions.inNewTransaction(() -> admin.count(matching));
        if (matched > request.maximum()) {
            throw new IllegalArgumentException("maximum is " + request.maximum() + " but " + matched
                    + " entries match; nothing was changed. Narrow the filter or raise maximum (at most "
                    + BulkRequest.MAX_MAXIMUM + ")");
        }
        if (request.dryRun() || matched == 0) {
            return new BulkResult(matched, 0, request.dryRun());
        }
        String who = caller();
        long changed = 0;
        int seen = 0;
        UUID after = null;
        while (seen < request.maximum()) {
            int limit = Math.min(BulkRequest.BATCH_SIZE, request.maximum() - seen);
            UUID from = after;
            Batch batch = transactions.inNewTransaction(() -> {
                List<UUID> ids = admin.lockMatching(matching, from, limit);
                return new Batch(ids, ids.isEmpty() ? 0 : change.apply(ids, now()));
            });
            changed += batch.changed();
            seen += batch.ids().size();
            if (batch.ids().size() < limit) {
                break;
            }
            after = batch.ids().get(batch.ids().size() - 1);
        }
        if (changed > 0) {
            committed(action, filter.toString(), changed, who);
        }
        return new BulkResult(matched, changed, false);
    }

    /** The filter with its statuses narrowed to {@code allowed}; {@code null} if none is left. */
    private static EntryFilter narrowed(EntryFilter filter, Set<OutboxStatus> allowed) {
        Set<OutboxStatus> statuses = EnumSet.copyOf(allowed);
        if (!filter.statuses().isEmpty()) {
            statuses.retainAll(filter.statuses());
        }
        if (statuses.isEmpty()) {
            return null;
        }
        return new EntryFilter(statuses, filter.deliveryType(), filter.messageType(), filter.createdFrom(),
                filter.createdTo(), filter.lastAttemptFrom(), filter.lastAttemptTo(), filter.errorContains());
    }

    private void committed(String action, String target, long changed, String who) {
        Instant at = clock.instant();
        LOG.log(Level.INFO, "Outbox {0} of {1} by {2}: {3} changed", action, target, who, changed);
        try {
            audit.accept(new AdminAction(action, target, changed, who, at));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "Outbox audit consumer threw for the " + action + " of " + target
                    + "; the change is committed", e);
        }
    }

    private String caller() {
        String name;
        try {
            name = caller.get();
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "No caller for an outbox operation: {0}", e.toString());
            name = null;
        }
        if (name == null || name.isBlank()) {
            return UNKNOWN_CALLER;
        }
        return name.length() > MAX_CALLER_LENGTH ? name.substring(0, MAX_CALLER_LENGTH) : name;
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    private static void requireFilter(EntryFilter filter) {
        requireArgument("filter", filter);
        requireStorable("createdFrom", filter.createdFrom());
        requireStorable("createdTo", filter.createdTo());
        requireStorable("lastAttemptFrom", filter.lastAttemptFrom());
        requireStorable("lastAttemptTo", filter.lastAttemptTo());
    }

    private static void requireStorable(String name, Instant value) {
        if (value != null && (value.isBefore(EARLIEST) || value.isAfter(LATEST))) {
            throw new IllegalArgumentException(name + " must be between " + EARLIEST + " and " + LATEST
                    + ", got: " + value);
        }
    }

    private static void requireDeliveryType(String deliveryType) {
        requireArgument("deliveryType", deliveryType);
        if (deliveryType.isBlank() || deliveryType.length() > MAX_DELIVERY_TYPE_LENGTH) {
            throw new IllegalArgumentException("deliveryType must be 1 to " + MAX_DELIVERY_TYPE_LENGTH
                    + " characters and not blank, got " + deliveryType.length() + " characters");
        }
    }

    private static void requireArgument(String name, Object value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
    }
}
