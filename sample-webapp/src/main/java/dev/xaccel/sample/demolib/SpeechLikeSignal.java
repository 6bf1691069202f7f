package dev.xaccel.sample.demolib;

import java.util.Random;

/**
 * A deterministic "voice" for the demo chapters: syllables of harmonics shaped by two vowel formants,
 * with pitch glides, pauses between words and sentences, and a short chime every 15 seconds so that a
 * seek is audible. Uses a sine table (computed with StrictMath) so output is identical on every JVM.
 */
final class SpeechLikeSignal implements WavWriter.Signal {

    private static final int TABLE_BITS = 12;
    private static final int TABLE_SIZE = 1 << TABLE_BITS;
    private static final double[] SINE = new double[TABLE_SIZE + 1];
    private static final double[][] VOWELS = {
        {730, 1090}, {270, 2290}, {300, 870}, {530, 1840}, {570, 840}, {660, 1700}, {440, 1020},
    };
    private static final int MAX_HARMONICS = 24;
    private static final double CHIME_EVERY_SECONDS = 15.0;
    private static final double CHIME_SECONDS = 0.12;

    static {
        for (int i = 0; i <= TABLE_SIZE; i++) {
            SINE[i] = StrictMath.sin(2 * StrictMath.PI * i / TABLE_SIZE);
        }
    }

    private final int rate;
    private final Random random;
    private final double basePitch;
    private final double[] phase = new double[MAX_HARMONICS + 1];
    private final double[] weight = new double[MAX_HARMONICS + 1];
    private long n;
    private int segmentLeft;
    private int segmentLength;
    private boolean voiced;
    private double pitchFrom;
    private double pitchTo;
    private int syllablesInSentence;
    private double chimePhase;

    SpeechLikeSignal(int sampleRate, long seed, double basePitch) {
        this.rate = sampleRate;
        this.random = new Random(seed);
        this.basePitch = basePitch;
    }

    @Override
    public double next() {
        if (segmentLeft == 0) {
            nextSegment();
        }
        double v = 0;
        if (voiced) {
            double pos = 1.0 - (double) segmentLeft / segmentLength;
            double f0 = pitchFrom + (pitchTo - pitchFrom) * pos;
            double env = sin(0.5 * pos);                         // half a sine: rise and fall
            for (int k = 1; k <= MAX_HARMONICS; k++) {
                double f = f0 * k;
                if (f > rate * 0.45 || weight[k] == 0) {
                    continue;
                }
                phase[k] += f / rate;
                phase[k] -= Math.floor(phase[k]);
                v += weight[k] * sin(phase[k]);
            }
            v *= 0.32 * env;
        }
        segmentLeft--;
        v += chime();
        n++;
        return v;
    }

    private double chime() {
        double t = (double) n / rate;
        double inPeriod = t % CHIME_EVERY_SECONDS;
        if (t < 1 || inPeriod > CHIME_SECONDS) {
            return 0;
        }
        chimePhase += 1318.5 / rate;                            // E6
        chimePhase -= Math.floor(chimePhase);
        double env = 1.0 - inPeriod / CHIME_SECONDS;
        return 0.18 * env * env * sin(chimePhase);
    }

    private void nextSegment() {
        if (voiced && syllablesInSentence > 6 + random.nextInt(6)) {
            voiced = false;                                     // end of a sentence
            syllablesInSentence = 0;
            segmentLength = ms(420 + random.nextInt(500));
        } else if (voiced && random.nextInt(4) == 0) {
            voiced = false;                                     // between words
            segmentLength = ms(60 + random.nextInt(140));
        } else {
            voiced = true;
            syllablesInSentence++;
            segmentLength = ms(110 + random.nextInt(220));
            double[] vowel = VOWELS[random.nextInt(VOWELS.length)];
            double f1 = vowel[0] * (0.9 + 0.2 * random.nextDouble());
            double f2 = vowel[1] * (0.9 + 0.2 * random.nextDouble());
            pitchFrom = basePitch * (0.85 + 0.3 * random.nextDouble());
            pitchTo = pitchFrom * (0.85 + 0.3 * random.nextDouble());
            double sum = 0;
            for (int k = 1; k <= MAX_HARMONICS; k++) {
                double f = pitchFrom * k;
                double w = formant(f, f1, 110) + 0.6 * formant(f, f2, 170) + 0.25 / k;
                weight[k] = w < 0.01 ? 0 : w;
                sum += weight[k];
            }
            for (int k = 1; k <= MAX_HARMONICS; k++) {
                weight[k] /= sum;
            }
        }
        segmentLeft = segmentLength;
    }

    private static double formant(double f, double centre, double bandwidth) {
        double x = (f - centre) / bandwidth;
        return StrictMath.exp(-x * x);
    }

    private int ms(int millis) {
        return Math.max(1, rate * millis / 1000);
    }

    /** sin(2 pi x) for x in [0, 1), from the table with linear interpolation. */
    private static double sin(double x) {
        double p = x * TABLE_SIZE;
        int i = (int) p;
        if (i >= TABLE_SIZE) {
            i = TABLE_SIZE - 1;
        }
        double frac = p - i;
        return SINE[i] + (SINE[i + 1] - SINE[i]) * frac;
    }
}
