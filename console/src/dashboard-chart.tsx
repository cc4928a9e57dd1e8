// The dashboard's chart, drawn by uPlot (a small, maintained canvas chart library), loaded with the
// dashboard only: the console's first load stays without it.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

const palette = ['#0b4f9c', '#c2410c', '#15803d', '#7c3aed', '#b91c1c', '#0e7490', '#a16207', '#be185d'];

/** Leads per day, one line per series (a form or a location). */
export default function LeadsChart({
  days,
  series,
  title,
}: {
  days: string[];
  series: { label: string; counts: number[] }[];
  title: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const x = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
    const chart = new uPlot(
      {
        title,
        width: Math.min(900, box.current.clientWidth || 600),
        height: 260,
        scales: { x: { time: true } },
        series: [{}, ...series.map((one, index) => ({ label: one.label, stroke: palette[index % palette.length], width: 2 }))],
        axes: [{}, { label: 'Leads' }],
      },
      [x, ...series.map((one) => one.counts)],
      box.current,
    );
    return () => chart.destroy();
  }, [days, series, title]);
  return <div ref={box} className="dc-chart" />;
}
