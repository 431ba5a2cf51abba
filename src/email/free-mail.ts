// Consumer mailbox providers: an address there belongs to a person, not to a company, so
// validation results get no company fields. Extend the list as needed.
const FREE_MAIL_DOMAINS = new Set(
  `gmail.com googlemail.com yahoo.com yahoo.co.uk yahoo.co.in yahoo.fr yahoo.de yahoo.es yahoo.it yahoo.ca yahoo.com.au
yahoo.com.br yahoo.co.jp yahoo.com.mx yahoo.com.ar yahoo.com.sg yahoo.co.id ymail.com rocketmail.com
hotmail.com hotmail.co.uk hotmail.fr hotmail.de hotmail.it hotmail.es hotmail.nl hotmail.be hotmail.ca hotmail.com.br
outlook.com outlook.fr outlook.de outlook.es outlook.it outlook.co.uk outlook.com.br live.com live.co.uk live.fr live.de
live.it live.nl live.ca live.com.au msn.com passport.com aol.com aol.co.uk aim.com icloud.com me.com mac.com
proton.me protonmail.com protonmail.ch pm.me tutanota.com tutanota.de tuta.io tutamail.com fastmail.com fastmail.fm
gmx.com gmx.net gmx.de gmx.at gmx.ch gmx.fr gmx.co.uk web.de freenet.de t-online.de arcor.de posteo.de mailbox.org
mail.com email.com usa.com zoho.com zohomail.com yandex.com yandex.ru ya.ru mail.ru bk.ru inbox.ru list.ru internet.ru
rambler.ru ukr.net i.ua meta.ua qq.com foxmail.com 163.com 126.com yeah.net sina.com sina.cn sohu.com aliyun.com 139.com
naver.com hanmail.net daum.net kakao.com nate.com rediffmail.com libero.it virgilio.it tiscali.it alice.it tin.it
orange.fr wanadoo.fr free.fr laposte.net sfr.fr neuf.fr bbox.fr seznam.cz centrum.cz atlas.cz email.cz wp.pl o2.pl
interia.pl onet.pl op.pl tlen.pl gazeta.pl comcast.net verizon.net att.net sbcglobal.net bellsouth.net charter.net
cox.net earthlink.net optonline.net frontier.net windstream.net juno.com netzero.net btinternet.com sky.com virginmedia.com
talktalk.net ntlworld.com blueyonder.co.uk bigpond.com bigpond.net.au optusnet.com.au telstra.com shaw.ca rogers.com
sympatico.ca videotron.ca uol.com.br bol.com.br terra.com.br ig.com.br hey.com duck.com hushmail.com runbox.com
mailfence.com disroot.org riseup.net cock.li inbox.lv inbox.lt abv.bg mail.bg rediff.com sapo.pt telenet.be skynet.be
planet.nl ziggo.nl kpnmail.nl home.nl hetnet.nl xs4all.nl bluewin.ch hispeed.ch tele2.se telia.com online.no
yahoo.se yahoo.no yahoo.dk yahoo.gr yahoo.ie yahoo.com.tw yahoo.com.hk yahoo.com.ph yahoo.com.vn`.split(/\s+/),
);

export function isFreeMailDomain(domain: string): boolean {
  return FREE_MAIL_DOMAINS.has(domain.toLowerCase());
}
