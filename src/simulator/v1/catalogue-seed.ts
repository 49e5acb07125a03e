import { DateTime } from "luxon";
import { exponentOf } from "../../money/index.js";
import type { SimMerchant } from "../types.js";
import { defaultCurrency } from "./invoices-currency.js";
import { integerDecimal } from "./invoices-decimal.js";
import { SIM_ZONE } from "./invoices-validation.js";
import type { ProductDraft } from "./product.js";

/**
 * The sample products a merchant's catalogue starts with. Status, cashier and public flags follow
 * fixed patterns so every filter has both matches and misses whatever the seed; prices, creation
 * times and limits come from a small seeded generator, so a seed always yields the same catalogue.
 */

type Sample = readonly [
  name: string,
  description: string,
  category: readonly string[],
  language: "ar" | "en",
];

const SAMPLES: readonly Sample[] = [
  ["Arabic coffee 250g", "Cardamom-spiced light roast", ["coffee"], "en"],
  ["Espresso beans 1kg", "Dark roast for espresso machines", ["coffee"], "en"],
  ["Karak tea box", "Spiced milk tea, 20 sachets", ["tea"], "en"],
  ["شاي الزعفران", "شاي بالزعفران الإيراني", ["tea", "gifts"], "ar"],
  ["Date maamoul", "Semolina cookies filled with dates", ["bakery"], "en"],
  ["مناقيش زعتر", "خبز بالزعتر وزيت الزيتون", ["bakery"], "ar"],
  ["Monthly coffee club", "A bag of single-origin coffee every month", ["subscriptions", "coffee"], "en"],
  ["Annual gym membership", "Twelve months of unlimited access", ["subscriptions", "fitness"], "en"],
  ["Personal training session", "One hour with a coach", ["services", "fitness"], "en"],
  ["Yoga class pass", "Ten drop-in classes", ["services", "fitness"], "en"],
  ["Car wash", "Exterior and interior wash", ["services"], "en"],
  ["تنظيف المنزل", "ثلاث ساعات تنظيف", ["services"], "ar"],
  ["Oud perfume 50ml", "Agarwood eau de parfum", ["gifts", "perfume"], "en"],
  ["طقم بخور", "بخور ومبخرة", ["gifts", "perfume"], "ar"],
  ["Prayer mat", "Padded travel prayer mat", ["merchandise"], "en"],
  ["Branded mug", "Ceramic mug with the shop logo", ["merchandise", "coffee"], "en"],
  ["Tote bag", "Cotton canvas bag", ["merchandise"], "en"],
  ["Gift card", "Redeemable in store and online", ["gifts"], "en"],
  ["Kunafa tray", "Serves eight", ["bakery", "gifts"], "en"],
  ["Cloud storage 1TB", "Monthly plan", ["subscriptions", "software"], "en"],
  ["Website hosting", "Yearly plan with a free domain", ["subscriptions", "software"], "en"],
  ["دروس اللغة العربية", "عشر حصص خاصة", ["services", "education"], "ar"],
  ["Coding bootcamp seat", "Twelve-week evening course", ["education"], "en"],
  ["Falcon hood", "Hand-stitched leather hood", ["merchandise"], "en"],
  ["Camel milk chocolate", "Box of 24 pieces", ["gifts", "bakery"], "en"],
];

/** The first sample is created at this Qatar time; the rest follow about 11 days apart through 2025. */
const FIRST_CREATED = DateTime.fromISO("2025-01-06T09:00:00", { zone: SIM_ZONE });

/** mulberry32: a tiny deterministic generator; only integers derived from it reach the products. */
function generator(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const unit = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return Math.floor(unit * below);
  };
}

/** Whole prices from 1 to 2,000 spread across magnitudes, with some common fractions. */
function priceMinor(next: (below: number) => number, currency: string): number {
  const magnitudes = [10, 100, 1000, 2000];
  const major = 1 + next(magnitudes[next(magnitudes.length)] ?? 10);
  const hundredths = [0, 0, 50, 99, 25][next(5)] ?? 0;
  const exponent = exponentOf(currency);
  const fraction = exponent >= 2 ? hundredths * 10 ** (exponent - 2) : 0;
  return major * 10 ** exponent + fraction;
}

export function sampleProducts(merchant: SimMerchant, seed: number): ProductDraft[] {
  const next = generator(Math.imul(seed, 0x9e3779b1) ^ merchant.id);
  const currency = defaultCurrency(merchant);
  return SAMPLES.map(([name, description, category, language], index) => {
    const isLimited = next(5) < 2;
    const code = (category[0] ?? "gen").slice(0, 3).toUpperCase();
    return {
      name,
      sku: `${code}-${String(index + 1).padStart(4, "0")}`,
      priceMinor: priceMinor(next, currency),
      currency,
      image: undefined,
      description,
      createdAt: FIRST_CREATED.plus({ days: index * 11, hours: next(9), minutes: next(60) }),
      category,
      online: index % 4 !== 3,
      language,
      setting: {
        isPublic: index % 3 !== 2,
        isLimited,
        isCashier: index % 5 === 2,
        maxCount: integerDecimal(isLimited ? 10 + next(191) : 0),
        maxOrder: next(11),
      },
    };
  });
}
