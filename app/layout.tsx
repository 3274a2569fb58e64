import type { Metadata } from "next";
import Link from "next/link";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Forage", template: "%s · Forage" },
  description: "Collect a website's data files — spreadsheets, CSV, PDF reports — without crawling the whole site.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="site-header">
          <Link href="/" className="brand">
            <span className="brand-mark" aria-hidden="true">◆</span> Forage
          </Link>
          <nav aria-label="Main">
            <Link href="/">Crawls</Link>
          </nav>
        </header>
        <Providers>
          <main className="page">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
