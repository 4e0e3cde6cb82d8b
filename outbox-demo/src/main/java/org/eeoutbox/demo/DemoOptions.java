package org.eeoutbox.demo;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The command line of {@code ./demo} (see {@code usage.txt}).
 *
 * @param orders     orders to place
 * @param database   {@code postgresql}, {@code mysql}, {@code mariadb} or an external database's JDBC URL
 * @param dbUser     login for an external database
 * @param dbPassword its password
 * @param chaos      stop the webhook receiver for a few seconds mid-run
 * @param clients    client threads
 * @param timeout    how long to wait for the deliveries after the last order
 * @param rate       orders offered per second, at a fixed pace; 0 for as fast as the service answers
 * @param warmUp     orders placed first whose latency the summary leaves out
 * @param feedClients clients following the order feed over Server-Sent Events; 0 for no feed
 * @param help       print the usage and exit
 */
record DemoOptions(int orders, String database, Optional<String> dbUser, Optional<String> dbPassword, boolean chaos,
        int clients, Duration timeout, int rate, int warmUp, int feedClients, boolean help) {

    static final String POSTGRESQL = "postgresql";
    static final String MYSQL = "mysql";
    static final String MARIADB = "mariadb";

    /** Returns whether the database is an external one, given by JDBC URL. */
    boolean externalDatabase() {
        return database.startsWith("jdbc:");
    }

    /** Returns {@code postgresql}, {@code mysql} or {@code mariadb}: which kind of database this is. */
    String databaseKind() {
        return externalDatabase() ? kindOfUrl(database) : database;
    }

    /** Returns the kind of database a JDBC URL of one of the supported drivers reaches. */
    static String kindOfUrl(String url) {
        String lower = url.toLowerCase(Locale.ROOT);
        if (lower.startsWith("jdbc:mysql:")) {
            return MYSQL;
        }
        return lower.startsWith("jdbc:mariadb:") ? MARIADB : POSTGRESQL;
    }

    /**
     * Parses the arguments; {@code env} supplies {@code DEMO_DB_USER} and {@code DEMO_DB_PASSWORD}.
     *
     * @throws IllegalArgumentException with a message for the user
     */
    static DemoOptions parse(String[] args, Map<String, String> env) {
        int orders = 10_000;
        String database = POSTGRESQL;
        String dbUser = env.get("DEMO_DB_USER");
        String dbPassword = env.get("DEMO_DB_PASSWORD");
        boolean chaos = false;
        int clients = 8;
        Duration timeout = Duration.ofMinutes(3);
        int rate = 0;
        int warmUp = 0;
        int feedClients = 0;
        boolean help = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String value = null;
            int equals = arg.indexOf('=');
            if (arg.startsWith("--") && equals > 0) {
                value = arg.substring(equals + 1);
                arg = arg.substring(0, equals);
            }
            switch (arg) {
                case "--help", "-h" -> help = true;
                case "--chaos" -> {
                    if (value != null) {
                        throw new IllegalArgumentException("--chaos takes no value");
                    }
                    chaos = true;
                }
                case "--orders", "--clients", "--timeout", "--db", "--db-user", "--db-password", "--rate",
                        "--warm-up", "--feed-clients" -> {
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            throw new IllegalArgumentException(arg + " needs a value");
                        }
                        value = args[++i];
                    }
                    switch (arg) {
                        case "--orders" -> orders = integer(arg, value, 1, 1_000_000);
                        case "--clients" -> clients = integer(arg, value, 1, 64);
                        case "--timeout" -> timeout = Duration.ofSeconds(integer(arg, value, 1, 86_400));
                        case "--rate" -> rate = integer(arg, value, 0, 10_000);
                        case "--warm-up" -> warmUp = integer(arg, value, 0, 1_000_000);
                        case "--feed-clients" -> feedClients = integer(arg, value, 0, 200);
                        case "--db" -> database = database(value);
                        case "--db-user" -> dbUser = value;
                        default -> dbPassword = value;
                    }
                }
                default -> throw new IllegalArgumentException("unknown option: " + args[i]);
            }
        }
        if (warmUp >= orders) {
            throw new IllegalArgumentException("--warm-up (" + warmUp + ") must be less than --orders (" + orders
                    + "): the latency is measured on the orders after the warm-up");
        }
        if (database.startsWith("jdbc:")) {
            if (dbUser == null || dbUser.isBlank()) {
                throw new IllegalArgumentException("--db " + database + " needs --db-user (or DEMO_DB_USER)");
            }
            if (dbPassword == null || dbPassword.isEmpty()) {
                throw new IllegalArgumentException("--db " + database + " needs a non-empty --db-password (or"
                        + " DEMO_DB_PASSWORD): Payara reads it through MicroProfile Config, where an empty value"
                        + " counts as missing");
            }
        }
        return new DemoOptions(orders, database, Optional.ofNullable(dbUser), Optional.ofNullable(dbPassword), chaos,
                clients, timeout, rate, warmUp, feedClients, help);
    }

    private static String database(String value) {
        String lower = value.toLowerCase(Locale.ROOT);
        return switch (lower) {
            case "postgres", "postgresql", "pg" -> POSTGRESQL;
            case "mysql" -> MYSQL;
            case "mariadb" -> MARIADB;
            default -> {
                if (lower.startsWith("jdbc:postgresql:") || lower.startsWith("jdbc:mysql:")
                        || lower.startsWith("jdbc:mariadb:")) {
                    yield value;
                }
                throw new IllegalArgumentException("--db must be postgres, mysql, mariadb or a jdbc:postgresql:,"
                        + " jdbc:mysql: or jdbc:mariadb: URL, got: " + value);
            }
        };
    }

    private static int integer(String option, String value, int min, int max) {
        try {
            int parsed = Integer.parseInt(value.replace("_", ""));
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " must be a whole number from " + min + " to " + max + ", got: "
                + value);
    }
}
