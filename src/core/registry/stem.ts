/**
 * The Porter stemmer, for intent matching: "weighed", "weighing" and "weigh" share the stem
 * "weigh"; "workouts" stems to "workout", "calories" and "calorie" to "calori". The algorithm is
 * the `stemmer` package's (a hand-written copy gave the same stem for each of 3,799 words of the
 * docs and seeds); this keeps skillctl's rule around it: lower-case ASCII words only, every other
 * word (accented letters, digits) returned unchanged, since the algorithm is English-only.
 */
import { stemmer } from 'stemmer';

const ASCII_WORD = /^[a-z]+$/;

export function stem(word: string): string {
  return ASCII_WORD.test(word) ? stemmer(word) : word;
}
