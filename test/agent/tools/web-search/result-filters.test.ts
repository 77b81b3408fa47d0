import { describe, expect, it } from 'vitest';
import { isAdultContent } from '../../../../agent/tools/web-search/adult-filter.js';
import { isNavigationPage } from '../../../../agent/tools/web-search/navigation-filter.js';

describe('navigation filter', () => {
  it.each([
    ['https://app.aomthong.co.th/login', 'ออมทอง'],
    ['https://www.example-shop.co.th/th/signin?next=/', 'Shop'],
    ['https://site.com/accounts/register', 'Register'],
    ['https://accounts.google.com/ServiceLogin', 'Google'],
    ['https://blog.com/wp-login.php', 'Blog'],
    ['https://portal.go.th/home', 'เข้าสู่ระบบ - ระบบบริการ'],
    ['https://service.com/home', 'Sign in to your account'],
    ['https://www.youtube.com/@goldnewschannel', 'Gold News'],
    ['https://www.youtube.com/@goldnewschannel/videos', 'Gold News'],
    ['https://www.youtube.com/channel/UC123', 'Channel'],
    ['https://www.facebook.com/someshop', 'Some Shop'],
    ['https://x.com/python', 'Python'],
    ['https://www.tiktok.com/@user', 'User'],
    ['https://www.linkedin.com/in/someone', 'Someone'],
    ['https://www.google.com/search?q=gold', 'gold - Google Search'],
    ['https://example.com/article', 'Example'],
  ])('drops %s (%s)', (url, title) => {
    expect(isNavigationPage(url, title)).toBe(true);
  });

  it.each([
    ['https://www.youtube.com/watch?v=abc', 'ราคาทองวันนี้'],
    ['https://www.facebook.com/someshop/posts/123', 'โพสต์'],
    ['https://x.com/python/status/1786763460992544791', 'Python'],
    ['https://docs.python.org/3/whatsnew/3.13.html', "What's New"],
    ['https://www.blognone.com/node/142000', 'วิธีเข้าสู่ระบบ e-Filing ให้ถูกต้อง'],
    ['https://www.rd.go.th/e-filing/login-guide.html', 'คู่มือ'],
    ['https://news.com/accounting-rules', 'Accounting rules 2025'],
  ])('keeps %s (%s)', (url, title) => {
    expect(isNavigationPage(url, title)).toBe(false);
  });
});

describe('adult filter', () => {
  it.each([
    ['https://th.xvideos.com/video/1', 'ราคาทอง', ''],
    ['https://www.pornhub.com/view', 'anything', ''],
    ['https://site.xxx/a', 'a', ''],
    ['https://blog.example.org/a', 'คลิปหลุด ดาราสาว', ''],
    ['https://blog.example.org/b', 'รวมหนังโป๊', ''],
    ['https://blog.example.org/c', 'Free porn videos', ''],
    ['https://blog.example.org/d', 'news', 'leaked onlyfans pictures'],
  ])('drops %s %s', (url, title, snippet) => {
    expect(isAdultContent(url, title, snippet)).toBe(true);
  });

  it.each([
    ['https://travel.example.org/a', 'ท่าเรือโป๊ะ ลงเรือที่ไหน', 'โป๊ะแตก'],
    ['https://www.sanook.com/money', 'ราคาทองวันนี้', 'ขายออก 47,150 บาท'],
    ['https://en.wikipedia.org/wiki/Sex_education', 'Sex education', 'curriculum'],
    ['https://shop.example.org/lipstick', 'Nude lipstick shades', ''],
    ['https://www.xvideosmith.com/', 'Video editing tools', ''],
  ])('keeps %s %s', (url, title, snippet) => {
    expect(isAdultContent(url, title, snippet)).toBe(false);
  });
});
