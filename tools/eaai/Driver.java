import java.lang.reflect.Field;
import java.util.Random;

import ginrummy.GinRummyGame;
import ginrummy.SimpleGinRummyPlayer;

/**
 * Plays seeded verbose games of the EAAI gin rummy framework between two of its
 * SimpleGinRummyPlayers and prints what the framework prints, nothing else.
 *
 * Usage: java -cp BUILD:tools/eaai Driver FIRST_SEED GAMES
 *
 * Game g (0-based) reseeds the framework's shuffling Random with FIRST_SEED + g and the two
 * players' Randoms with 2 * (FIRST_SEED + g) + 1 and 2 * (FIRST_SEED + g) + 2, so each game
 * can be replayed alone. The framework keeps its Random in a private static field; this
 * driver reaches it by reflection rather than changing the framework.
 */
public final class Driver {
    private Driver() {
    }

    private static Random field(Class<?> owner, Object instance, String name) throws ReflectiveOperationException {
        Field f = owner.getDeclaredField(name);
        f.setAccessible(true);
        return (Random) f.get(instance);
    }

    public static void main(String[] args) throws ReflectiveOperationException {
        long first = Long.parseLong(args[0]);
        int games = Integer.parseInt(args[1]);
        GinRummyGame.setPlayVerbose(true);
        for (int g = 0; g < games; g++) {
            long seed = first + g;
            SimpleGinRummyPlayer p0 = new SimpleGinRummyPlayer();
            SimpleGinRummyPlayer p1 = new SimpleGinRummyPlayer();
            field(GinRummyGame.class, null, "RANDOM").setSeed(seed);
            field(SimpleGinRummyPlayer.class, p0, "random").setSeed(2 * seed + 1);
            field(SimpleGinRummyPlayer.class, p1, "random").setSeed(2 * seed + 2);
            new GinRummyGame(p0, p1).play();
        }
        System.out.flush();
    }
}
