// The ops dashboard's charts, drawn with Chart.js (loaded before this file) from the JSON block the
// server renders into the page (#ops-data, snake_case). No data is fetched: what the page shows is
// one snapshot.
(() => {
  const source = document.getElementById("ops-data");
  if (!source || typeof Chart === "undefined") return;
  const data = JSON.parse(source.textContent);
  const scale = 10 ** data.exponent;
  const palette = {
    paid: "#1f9d55",
    declined: "#d64545",
    unknown: "#e8a33d",
    muted: "#8a94a6",
    blue: "#3b6fd6",
  };
  // Exact, from the integer minor units, grouped as the page's figures are (html.ts money).
  const money = (minor) => {
    const digits = String(Math.abs(minor)).padStart(data.exponent + 1, "0");
    const whole = digits.slice(0, digits.length - data.exponent).replace(/\B(?=(\d{3})+$)/g, ",");
    const fraction = data.exponent > 0 ? `.${digits.slice(-data.exponent)}` : "";
    return `${minor < 0 ? "-" : ""}${whole}${fraction} ${data.currency}`;
  };
  // Counts are whole: no tick at 0.5.
  const countTicks = { precision: 0 };
  const label = (iso) => (data.unit === "hour" ? iso.slice(5, 16).replace("T", " ") : iso.slice(0, 10));
  Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
  // The axes group thousands with commas, as the page's figures do, whatever the browser's language.
  Chart.defaults.locale = "en-US";
  Chart.defaults.animation = false;

  const charts = [];
  const narrow = (id) => (document.getElementById(id)?.parentElement?.clientWidth ?? 0) < 440;
  const draw = (id, config) => {
    const canvas = document.getElementById(id);
    if (canvas)
      charts.push(
        new Chart(canvas, { ...config, options: { maintainAspectRatio: false, ...config.options } }),
      );
  };

  const c = data.collections;
  // Amounts are lines on their own axis; each keeps its minor units for the tooltip.
  const amountLine = (name, minor, color) => ({
    type: "line",
    label: `${name} (${data.currency})`,
    data: minor.map((m) => m / scale),
    minor,
    borderColor: color,
    backgroundColor: color,
    yAxisID: "amount",
    tension: 0.2,
  });
  draw("chart-collections", {
    type: "bar",
    data: {
      labels: c.labels.map(label),
      datasets: [
        amountLine("Collected", c.collected_amount, palette.blue),
        { label: "Paid", data: c.paid_count, backgroundColor: palette.paid, stack: "n", yAxisID: "count" },
        {
          label: "Declined",
          data: c.declined_count,
          backgroundColor: palette.declined,
          stack: "n",
          yAxisID: "count",
        },
        {
          label: "Unknown",
          data: c.unknown_count,
          backgroundColor: palette.unknown,
          stack: "n",
          yAxisID: "count",
        },
        amountLine("Refunded", c.refunded_amount, palette.muted),
      ],
    },
    options: {
      interaction: { mode: "index", intersect: false },
      scales: {
        count: {
          position: "left",
          beginAtZero: true,
          stacked: true,
          ticks: countTicks,
          title: { display: true, text: "attempts" },
        },
        amount: {
          position: "right",
          beginAtZero: true,
          grid: { drawOnChartArea: false },
          title: { display: true, text: data.currency },
        },
      },
      plugins: {
        tooltip: {
          callbacks: {
            label: (item) =>
              item.dataset.yAxisID === "amount"
                ? `${item.dataset.label}: ${money(item.dataset.minor[item.dataIndex])}`
                : `${item.dataset.label}: ${item.raw}`,
          },
        },
      },
    },
  });

  draw("chart-funnel", {
    type: "bar",
    data: {
      labels: data.funnel.labels,
      datasets: [
        {
          label: "Charges",
          data: data.funnel.counts,
          backgroundColor: data.funnel.labels.map((l) =>
            l.startsWith("Recovered")
              ? palette.paid
              : l === "Invoiced"
                ? palette.declined
                : l === "Held"
                  ? palette.unknown
                  : palette.muted,
          ),
        },
      ],
    },
    options: {
      indexAxis: "y",
      plugins: { legend: { display: false } },
      scales: { x: { beginAtZero: true, ticks: countTicks } },
    },
  });

  const statusColors = {
    pending_enrollment: "#c3c9d4",
    trialing: "#7aa5f0",
    active: palette.paid,
    past_due: palette.unknown,
    unpaid: palette.declined,
    paused: "#9b7ad6",
    canceled: palette.muted,
  };
  draw("chart-statuses", {
    type: "doughnut",
    data: {
      labels: data.statuses.labels,
      datasets: [
        {
          data: data.statuses.counts,
          backgroundColor: data.statuses.labels.map((s) => statusColors[s] ?? palette.muted),
        },
      ],
    },
    // Beside the doughnut where there is room, under it on a phone.
    options: { plugins: { legend: { position: narrow("chart-statuses") ? "bottom" : "right" } } },
  });

  const q = data.queues;
  draw("chart-queues", {
    type: "bar",
    data: {
      labels: q.labels,
      datasets: [
        { label: "Waiting", data: q.waiting, backgroundColor: palette.blue },
        { label: "Active", data: q.active, backgroundColor: palette.paid },
        { label: "Delayed", data: q.delayed, backgroundColor: palette.unknown },
        { label: "Failed", data: q.failed, backgroundColor: palette.declined },
      ],
    },
    options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: countTicks } } },
  });

  document.body.dataset.charts = String(charts.length);
})();
