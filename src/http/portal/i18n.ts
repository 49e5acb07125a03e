import type { IntervalUnit } from "../../billing/index.js";
import type { CustomerLanguage } from "../../customers/index.js";

/**
 * Every word of the portal, in English and Arabic. A page takes one table, so no label is left in
 * the other language; values (amounts, dates, card digits) are never translated, only wrapped to
 * keep their own direction (format.ts). A sentence with values names them as {placeholders}, filled
 * by fill() so the sentence is escaped and the values keep their markup.
 */

export type Language = CustomerLanguage;

const en = {
  dir: "ltr",
  locale: "en-US",
  title: "Your subscriptions",
  otherLanguage: "العربية",
  greeting: "Hello, {name}",
  logout: "Sign out",
  subscriptions: "Subscriptions",
  noSubscriptions: "You have no subscriptions.",
  plan: "Plan",
  price: "Price",
  status: "Status",
  currentPeriod: "Current period",
  nextBilling: "Next billing",
  card: "Card",
  noCard: "No card saved",
  cardSaved: "Saved on {date}",
  expires: "expires",
  endsOn: "Ends on {date}: it will not renew.",
  changesOn: "Moves to {plan} on {date}.",
  updateCard: "Update card",
  saveCard: "Save a card for automatic payments",
  collectionMethod: "Payment",
  collectionMethods: {
    charge_automatically: "Pays by card",
    send_payment_link: "Pays by payment link",
  },
  due: "Payments due",
  dueBody: "Pay each of these by card on the secure payment page.",
  amountDue: "Amount due",
  payNow: "Pay now",
  cancel: "Cancel at period end",
  resume: "Keep my subscription",
  changePlan: "Change plan",
  changeTo: "Move to",
  charges: "Recent charges",
  noCharges: "No charges yet.",
  date: "Date",
  amount: "Amount",
  invoices: "Invoices",
  noInvoices: "No invoices yet.",
  number: "Number",
  view: "View",
  every: (count: number, unit: IntervalUnit) => (count === 1 ? `per ${unit}` : `every ${count} ${unit}s`),
  confirmTitle: "Cancel your subscription?",
  confirmBody:
    "Your {plan} subscription stays active until {date}, and then ends. You will not be charged again.",
  confirmYes: "Yes, cancel at period end",
  confirmNo: "No, go back",
  notices: {
    canceled: "Your subscription will end at the end of the current period.",
    ended: "Your subscription has ended.",
    resumed: "Your subscription will continue. Nothing was canceled.",
    plan_changed: "Your plan was changed.",
    plan_scheduled: "Your plan changes at the end of the current period.",
    refused: "That change is not possible for this subscription now.",
    gateway: "We could not open the card page just now. Please try again in a few minutes.",
  },
  linkTitle: "This link can no longer be used",
  linkBody: "Links to your account work once and only for a short time. Please ask us for a new link.",
  openTitle: "Your account",
  openBody: "This link opens your account once, for a short time.",
  openButton: "Open my account",
  sessionTitle: "Your session has ended",
  sessionBody: "For your security, please open a new link to your account. Ask us for one if you need it.",
  subscriptionStates: {
    pending_enrollment: "Waiting for a card",
    trialing: "Trial",
    active: "Active",
    past_due: "Payment overdue",
    unpaid: "Unpaid",
    paused: "Paused",
    canceled: "Canceled",
  },
  chargeStates: {
    scheduled: "Scheduled",
    processing: "Processing",
    retrying: "Retrying",
    awaiting_payment: "Awaiting payment",
    paid: "Paid",
    needs_review: "Being checked",
    uncollectible: "Unpaid",
    canceled: "Canceled",
  },
  invoiceStates: { pending: "Being prepared", created: "Issued", failed: "Being prepared" },
};

export type PortalText = typeof en;

const UNITS_AR: Record<IntervalUnit, [string, string]> = {
  day: ["يوم", "أيام"],
  week: ["أسبوع", "أسابيع"],
  month: ["شهر", "أشهر"],
  year: ["سنة", "سنوات"],
};

const ar: PortalText = {
  dir: "rtl",
  locale: "ar-QA",
  title: "اشتراكاتك",
  otherLanguage: "English",
  greeting: "مرحباً، {name}",
  logout: "تسجيل الخروج",
  subscriptions: "الاشتراكات",
  noSubscriptions: "ليس لديك أي اشتراكات.",
  plan: "الباقة",
  price: "السعر",
  status: "الحالة",
  currentPeriod: "الفترة الحالية",
  nextBilling: "موعد الفوترة القادم",
  card: "البطاقة",
  noCard: "لا توجد بطاقة محفوظة",
  cardSaved: "حُفظت في {date}",
  expires: "تنتهي",
  endsOn: "ينتهي في {date} ولن يتجدد.",
  changesOn: "ينتقل إلى {plan} في {date}.",
  updateCard: "تحديث البطاقة",
  saveCard: "حفظ بطاقة للدفع التلقائي",
  collectionMethod: "طريقة الدفع",
  collectionMethods: {
    charge_automatically: "يُدفع بالبطاقة",
    send_payment_link: "يُدفع عبر رابط الدفع",
  },
  due: "مدفوعات مستحقة",
  dueBody: "ادفع كلاً منها بالبطاقة في صفحة الدفع الآمنة.",
  amountDue: "المبلغ المستحق",
  payNow: "ادفع الآن",
  cancel: "الإلغاء في نهاية الفترة",
  resume: "الإبقاء على اشتراكي",
  changePlan: "تغيير الباقة",
  changeTo: "الانتقال إلى",
  charges: "أحدث المدفوعات",
  noCharges: "لا توجد مدفوعات بعد.",
  date: "التاريخ",
  amount: "المبلغ",
  invoices: "الفواتير",
  noInvoices: "لا توجد فواتير بعد.",
  number: "الرقم",
  view: "عرض",
  every: (count: number, unit: IntervalUnit) =>
    count === 1 ? `لكل ${UNITS_AR[unit][0]}` : `كل ${count} ${UNITS_AR[unit][1]}`,
  confirmTitle: "هل تريد إلغاء اشتراكك؟",
  confirmBody: "يبقى اشتراكك في {plan} فعّالاً حتى {date} ثم ينتهي. لن يتم خصم أي مبلغ آخر.",
  confirmYes: "نعم، ألغِ في نهاية الفترة",
  confirmNo: "لا، العودة",
  notices: {
    canceled: "سينتهي اشتراكك في نهاية الفترة الحالية.",
    ended: "انتهى اشتراكك.",
    resumed: "سيستمر اشتراكك. لم يتم إلغاء أي شيء.",
    plan_changed: "تم تغيير باقتك.",
    plan_scheduled: "ستتغير باقتك في نهاية الفترة الحالية.",
    refused: "لا يمكن إجراء هذا التغيير على هذا الاشتراك الآن.",
    gateway: "تعذّر فتح صفحة البطاقة الآن. يُرجى المحاولة مرة أخرى بعد بضع دقائق.",
  },
  linkTitle: "لم يعد بالإمكان استخدام هذا الرابط",
  linkBody: "روابط حسابك تعمل مرة واحدة ولفترة قصيرة فقط. يُرجى أن تطلب منا رابطاً جديداً.",
  openTitle: "حسابك",
  openBody: "يفتح هذا الرابط حسابك مرة واحدة ولوقت قصير.",
  openButton: "افتح حسابي",
  sessionTitle: "انتهت جلستك",
  sessionBody: "حفاظاً على أمانك، يُرجى فتح رابط جديد لحسابك. اطلب منا رابطاً إذا احتجت إليه.",
  subscriptionStates: {
    pending_enrollment: "بانتظار البطاقة",
    trialing: "فترة تجريبية",
    active: "فعّال",
    past_due: "دفعة متأخرة",
    unpaid: "غير مدفوع",
    paused: "متوقف مؤقتاً",
    canceled: "ملغى",
  },
  chargeStates: {
    scheduled: "مجدول",
    processing: "قيد المعالجة",
    retrying: "إعادة المحاولة",
    awaiting_payment: "بانتظار الدفع",
    paid: "مدفوع",
    needs_review: "قيد المراجعة",
    uncollectible: "غير مدفوع",
    canceled: "ملغى",
  },
  invoiceStates: { pending: "قيد الإعداد", created: "صادرة", failed: "قيد الإعداد" },
};

export const TEXT: Record<Language, PortalText> = { en, ar };

export type NoticeKey = keyof PortalText["notices"];

export const isLanguage = (value: unknown): value is Language => value === "en" || value === "ar";

export const isNotice = (value: unknown): value is NoticeKey =>
  typeof value === "string" && Object.hasOwn(en.notices, value);
