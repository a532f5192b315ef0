/* tcp-client.c: the examples test's client: connect to 127.0.0.1:PORT, send a line, close; N times, retrying while the server starts. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int connect_once(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons((unsigned short)port) };
	static const char msg[] = "GET / syslet\r\n\r\n";
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    write(fd, msg, sizeof(msg) - 1) != (ssize_t)sizeof(msg) - 1) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const struct timespec pause = { 0, 50 * 1000 * 1000 };
	int port, n;

	if (argc != 3) {
		fprintf(stderr, "usage: tcp-client PORT COUNT\n");
		return 2;
	}
	port = atoi(argv[1]);
	n = atoi(argv[2]);
	for (int i = 0; i < n; i++) {
		int tries = 0;

		/* The server may still be binding: try for about 5 s. */
		while (connect_once(port)) {
			if (++tries > 100) {
				perror("tcp-client: connect");
				return 1;
			}
			nanosleep(&pause, NULL);
		}
	}
	return 0;
}
