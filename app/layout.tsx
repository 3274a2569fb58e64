import type { Metadata, Viewport } from "next";
import Link from "next/link";
import { getPageUser } from "@/app/_server/page-user";
import { MainNav } from "@/components/layout/MainNav";
import { UserMenu } from "@/components/layout/UserMenu";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Forage", template: "%s · Forage" },
  icons: { icon: "/icon.svg" },
  description: "Collect a website's data files — spreadsheets, CSV, PDF reports — without crawling the whole site.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#1f6f5c" };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const user = await getPageUser();
  return (
    <html lang="en">
      <body>
        <a href="#content" className="skip-link">
          Skip to content
        </a>
        <header className="site-header">
          <Link href="/" className="brand">
            <span className="brand-mark" aria-hidden="true">◆</span> Forage
          </Link>
          {user ? (
            <>
              <MainNav isAdmin={user.role === "admin"} />
              <UserMenu email={user.email} />
            </>
          ) : null}
        </header>
        <Providers>
          <main className="page" id="content" tabIndex={-1}>
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
